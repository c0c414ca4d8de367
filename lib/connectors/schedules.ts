import { ScheduleNotFoundError, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { tagUnavailable } from '#platform/dependency-errors.js';
import { connectorScheduleId } from '#workflows/ids.js';
import type { Connector } from './records.js';

/** A connector that polls its source: uploaded files are taken in as they come, with no schedule. */
type PolledConnector = Exclude<Connector, { kind: 'files' }>;

/** The workflow a connector's schedule starts, by kind. */
const syncWorkflowOf = {
  shop: 'shopSyncWorkflow',
  cms: 'cmsSyncWorkflow',
  website: 'websiteCrawlWorkflow',
} as const satisfies Record<PolledConnector['kind'], string>;

const polled = (connector: Connector): connector is PolledConnector => connector.kind !== 'files';

/** What the connector's status shows of its schedule. */
export interface ScheduleState {
  nextSyncAt: string | null;
  /** Ids of the sync workflows running now (at most one: syncs never overlap). */
  runningWorkflowIds: string[];
}

/**
 * A connector's schedule in Temporal: every `syncEveryMinutes` it starts the connector's sync workflow
 * (the first at once). It is durable (it survives restarts of the service and of Temporal), a sync
 * never overlaps another (a time that comes while one runs is skipped; "sync now" queues one), and
 * operators see it, and every sync it started, in the Temporal UI. A Temporal that cannot be reached
 * fails a call with a DependencyUnavailableError.
 */
export function createConnectorSchedules(temporal: Client, taskQueue: string) {
  const handleOf = (connector: Pick<Connector, 'id' | 'tenantId'>) =>
    temporal.schedule.getHandle(connectorScheduleId(connector.tenantId, connector.id));

  const schedules = tagUnavailable('temporal', {
    /** A files source has none (nothing to poll): nothing is made. */
    async create(connector: Connector): Promise<void> {
      if (!polled(connector)) return;
      const scheduleId = connectorScheduleId(connector.tenantId, connector.id);
      await temporal.schedule.create({
        scheduleId,
        spec: { intervals: [{ every: `${connector.syncEveryMinutes} minutes` }] },
        action: {
          type: 'startWorkflow',
          workflowType: syncWorkflowOf[connector.kind],
          workflowId: `${scheduleId}/sync`,
          taskQueue,
          args: [{ connectorId: connector.id }],
        },
        policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '10 minutes' },
        state: { triggerImmediately: true, note: `${connector.kind} connector "${connector.name}"` },
        memo: { tenantId: connector.tenantId, connectorId: connector.id, kind: connector.kind },
      });
    },

    /** Starts a sync now, or right after the one running; a schedule that went missing is made again (which starts one). */
    async trigger(connector: Connector): Promise<void> {
      if (!polled(connector)) return;
      try {
        await handleOf(connector).trigger(ScheduleOverlapPolicy.BUFFER_ONE);
      } catch (error) {
        if (!(error instanceof ScheduleNotFoundError)) throw error;
        await schedules.create(connector);
      }
    },

    /** A schedule removed behind the service's back (in the Temporal UI, say) reads as having nothing ahead. */
    async state(connector: Connector): Promise<ScheduleState> {
      if (!polled(connector)) return { nextSyncAt: null, runningWorkflowIds: [] };
      let info;
      try {
        ({ info } = await handleOf(connector).describe());
      } catch (error) {
        if (error instanceof ScheduleNotFoundError) return { nextSyncAt: null, runningWorkflowIds: [] };
        throw error;
      }
      return {
        nextSyncAt: info.nextActionTimes[0]?.toISOString() ?? null,
        runningWorkflowIds: info.runningActions.map((action) => action.workflow.workflowId),
      };
    },

    /** Deletes the schedule and ends a sync it has running; a schedule already gone is fine. */
    async remove(connector: Connector): Promise<void> {
      if (!polled(connector)) return;
      const handle = handleOf(connector);
      try {
        const { info } = await handle.describe();
        await handle.delete();
        await Promise.all(
          info.runningActions.map((action) =>
            temporal.workflow
              .getHandle(action.workflow.workflowId, action.workflow.firstExecutionRunId)
              .terminate('connector removed')
              .catch(() => undefined),
          ),
        );
      } catch (error) {
        if (!(error instanceof ScheduleNotFoundError)) throw error;
      }
    },
  });
  return schedules;
}

export type ConnectorSchedules = ReturnType<typeof createConnectorSchedules>;
