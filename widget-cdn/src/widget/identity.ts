/**
 * The user id an identity token names (not verified here: the service does that). The widget uses
 * it only to keep one signed-in user's conversation from another user of the same browser.
 */
export function userOfToken(token: string): string | undefined {
  try {
    const parts = token.split('.');
    if (parts[0] === 'v1' && parts.length === 6) return decode(parts[4]!);
    const sub: unknown = parts.length === 3 ? JSON.parse(decode(parts[1]!)).sub : undefined;
    return typeof sub === 'string' ? sub : undefined;
  } catch {
    return undefined;
  }
}

function decode(base64url: string): string {
  const binary = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}
