/** Where the messaging channel's connections live in Redis, under the deployment's prefix. */
export function messagingKeys(prefix: string) {
  return {
    /** A connection's record (a hash); its secrets only sealed. */
    connection: (connectionId: string) => `${prefix}:messaging-connection:${connectionId}`,
    /** A tenant's connections by creation time (sorted set). */
    ofTenant: (tenantId: string) => `${prefix}:tenant:${tenantId}:messaging-connections`,
    /** Look-ups to the connection's id: the webhook path the platform calls, the number it delivers for. */
    byWebhookPath: (webhookPath: string) => `${prefix}:messaging-connection-by-path:${webhookPath}`,
    byPhoneNumberId: (phoneNumberId: string) => `${prefix}:messaging-connection-by-phone-number:${phoneNumberId}`,
  };
}

export type MessagingKeys = ReturnType<typeof messagingKeys>;
