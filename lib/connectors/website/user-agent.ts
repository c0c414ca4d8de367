/**
 * How the website crawler introduces itself. Site owners read the full string in their logs (the link says what the
 * bot is and how to keep it out); robots.txt groups name the product token alone, which robots-parser derives from
 * the full string by cutting at the first `/`, so the two must start alike.
 */
export const crawlerUserAgent = 'KbAssistantBot/1.0 (+https://github.com/kb-assistant/kb-assistant/blob/main/docs/sources.md)';

/** The product token a robots.txt `User-agent:` line names to address this crawler (RFC 9309 §2.2.1). */
export const crawlerToken = 'KbAssistantBot';
