import type { ConversationRecord } from '#conversations/records.js';
import type { MessagingConnections } from '#messaging/connections.js';
import { GraphApiError } from '#messaging/graph-errors.js';
import type { GraphMediaClient } from '#messaging/graph-media.js';
import { markIfTokenRefused } from '#messaging/token-refusal.js';
import { fetchMedia, MediaFetchError, mediaText, type MediaType } from '#messaging/media.js';
import { parameterProblems, renderTemplate, type MessageTemplate, type MessageTemplates } from '#messaging/templates.js';
import type { OutboundFiles } from '#platform/outbound/outbound-http.js';
import type { AgentReplyExtras } from '#workflows/conversations/types.js';
import { AppError, invalidPayload } from '#api/errors.js';

export interface ReplyExtrasDeps {
  connections: Pick<MessagingConnections, 'get' | 'credentialsOf' | 'markTokenInvalid'>;
  templates: Pick<MessageTemplates, 'list' | 'get'>;
  /** The one way out for the agent's file (`lib/platform/outbound/`), and the platform's media endpoint. */
  media: { http: OutboundFiles; graph: GraphMediaClient };
}

/** An agent's reply that carries a template or a file: the text the transcript shows, and what goes out. */
export type PreparedReply = { text: string } & AgentReplyExtras;

/**
 * What an agent may send besides text on the messaging channel, checked and prepared before the
 * conversation is asked: an approved template (registered on the conversation's connection, its
 * parameters counted), or an image or document fetched from a URL and uploaded to the platform.
 * The widget has neither: 409 `unsupported_on_channel`.
 */
export function createReplyExtras({ connections, templates, media }: ReplyExtrasDeps) {
  /** The conversation's connection id; widget conversations have none. */
  function connectionOf(conversation: ConversationRecord, what: string): string {
    if (conversation.channel !== 'messaging' || !conversation.messaging) {
      throw new AppError(
        409,
        'unsupported_on_channel',
        `${what} can only be sent on the messaging channel; on the widget, reply with text (a link works).`,
      );
    }
    return conversation.messaging.connectionId;
  }

  return {
    /** The templates of the conversation's connection; none on the widget. */
    async templatesFor(conversation: ConversationRecord): Promise<MessageTemplate[]> {
      return conversation.channel === 'messaging' && conversation.messaging
        ? templates.list(conversation.messaging.connectionId)
        : [];
    },

    /** A registered template with the right parameters, filled in as the customer will read it; else 400. */
    async template(
      conversation: ConversationRecord,
      { name, language, parameters }: { name: string; language: string; parameters: string[] },
    ): Promise<PreparedReply> {
      const template = await templates.get(connectionOf(conversation, 'Templates'), name, language);
      if (!template) {
        throw invalidPayload(`No template ${name} (${language}) is registered on this conversation's connection.`, [
          { path: '/name', message: 'is not a registered template in this language' },
        ]);
      }
      const problems = parameterProblems(template, parameters);
      if (problems.length > 0) {
        throw invalidPayload(
          `The parameters do not fit the template ${name} (${language}): ${problems[0]}.`,
          problems.map((message) => ({ path: '/parameters', message })),
        );
      }
      return { text: renderTemplate(template.body, parameters), template: { name, language, parameters } };
    },

    /**
     * The file at `url`, fetched within our limits and uploaded to the platform: 400 with a `media_*`
     * code when the file cannot be taken, 502 `media_upload_failed` when the platform refuses it (a
     * refused token also marks the connection `token_invalid`, as a refused send does; from then on,
     * 409 `token_invalid` before anything is fetched).
     */
    async media(
      conversation: ConversationRecord,
      { type, url, caption, filename }: { type: MediaType; url: string; caption?: string; filename?: string },
    ): Promise<PreparedReply> {
      const connectionId = connectionOf(conversation, 'Images and documents');
      const connection = await connections.get(connectionId);
      if (!connection) {
        throw new AppError(409, 'connection_removed', 'The messaging connection of this conversation no longer exists.');
      }
      if (connection.status === 'token_invalid') {
        throw new AppError(
          409,
          'token_invalid',
          "The platform refused this connection's access token: nothing is sent on it until the token is replaced.",
        );
      }
      let file;
      try {
        file = await fetchMedia(media.http, url, type);
      } catch (error) {
        if (error instanceof MediaFetchError)
          throw new AppError(400, error.code, error.message, [{ path: '/url', message: error.message }]);
        throw error;
      }
      const shownName = filename?.trim() || file.filename;
      let uploaded;
      try {
        const { accessToken } = await connections.credentialsOf(connection);
        uploaded = await media.graph.uploadMedia(
          { apiVersion: connection.apiVersion, phoneNumberId: connection.phoneNumberId, accessToken },
          { ...file, filename: shownName },
        );
      } catch (error) {
        if (!(error instanceof GraphApiError)) throw error;
        // A refused token is refused for sends too: the connection says so, as after a refused send.
        await markIfTokenRefused(connections, connection.id, error);
        const code = error.code === null ? '' : ` (code ${error.code})`;
        throw new AppError(502, 'media_upload_failed', `The platform refused the file${code}: ${error.details || error.title}`);
      }
      const attachment = {
        type,
        mediaId: uploaded.id,
        url,
        ...(caption?.trim() ? { caption: caption.trim() } : {}),
        ...(type === 'document' ? { filename: shownName } : {}),
      };
      return { text: mediaText(attachment), attachment };
    },
  };
}

export type ReplyExtras = ReturnType<typeof createReplyExtras>;
