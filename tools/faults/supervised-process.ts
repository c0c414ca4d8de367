import type { ManagedProcess } from '#deploy/local/processes.js';

/**
 * One of our processes as an orchestrator keeps it: started again when it exits on its own (which
 * the campaign counts as a finding: a dependency's outage should not take our process down), and
 * killed and revived on purpose by the campaign.
 */
export function supervise(name: string, start: () => ManagedProcess, onCrash: (what: string) => void) {
  let current = start();
  let killing = false;
  let stopped = false;

  const watch = (process: ManagedProcess) =>
    void process.exited.then((code) => {
      if (killing || stopped || process !== current) return;
      onCrash(`${name} exited on its own (code ${code}); started again`);
      current = start();
      watch(current);
    });
  watch(current);

  return {
    get pid(): number | undefined {
      return current.pid;
    },
    async kill(): Promise<void> {
      killing = true;
      current.kill('SIGKILL');
      await current.exited;
    },
    revive(): void {
      current = start();
      killing = false;
      watch(current);
    },
    async stop(): Promise<void> {
      stopped = true;
      await current.stop();
    },
  };
}
