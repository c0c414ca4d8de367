/** Where the messaging channel's connections live in Redis, under the deployment's prefix. */
export function messagingKeys(prefix: string) {
  return {
    /** A connection's record (a hash); its secrets only sealed. */
    connection: (connectionId: string) => `${prefix}:messaging-connection:${connectionId}`,
    /** A connection's registered message templates (a hash, `name:language` to the template as JSON). */
    templates: (connectionId: string) => `${prefix}:messaging-connection:${connectionId}:templates`,
    /** A tenant's connections by creation time (sorted set). */
    ofTenant: (tenantId: string) => `${prefix}:tenant:${tenantId}:messaging-connections`,
    /** Look-ups to the connection's id: the webhook path the platform calls, the number it delivers for. */
    byWebhookPath: (webhookPath: string) => `${prefix}:messaging-connection-by-path:${webhookPath}`,
    /**
     * Per tenant: a number is claimed by whoever types its id first, so a global claim would let one
     * tenant lock another out of its own number. Two tenants naming one number harm neither: each
     * connection has its own webhook path, app secret and token, and only the number's owner holds those.
     */
    byPhoneNumberId: (tenantId: string, phoneNumberId: string) =>
      `${prefix}:tenant:${tenantId}:messaging-connection-by-phone-number:${phoneNumberId}`,
  };
}

export type MessagingKeys = ReturnType<typeof messagingKeys>;
