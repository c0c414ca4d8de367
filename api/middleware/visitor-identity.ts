import type { Context, Middleware } from 'koa';
import { IdentityTokenError } from '#conversations/identity-token.js';
import type { IdentitySession, VerifiedVisitors } from '#conversations/verified-visitors.js';
import type { VerifiedVisitor, VisitorIdentity } from '#conversations/visitor-identity.js';
import type { OperatorIdentities } from '#tenancy/operator-identity.js';
import { identityInvalid, identityRequired } from '../errors.js';
import type { ChatState, VisitorState } from '../state.js';

export interface VisitorIdentityDeps {
  visitorIdentity: Pick<VisitorIdentity, 'verify'>;
  verifiedVisitors: Pick<VerifiedVisitors, 'sessionOf'>;
  identities: Pick<OperatorIdentities, 'isRequired'>;
}

/**
 * The chat routes' side of verified visitors (docs/widget.md, "Visitor identity"): who an identity
 * token or a verified session proves the visitor to be, and the operator's requirement of it.
 */
export function visitorIdentityChecks({ visitorIdentity, verifiedVisitors, identities }: VisitorIdentityDeps) {
  /** The visitor an identity token proves, or 401 `identity_invalid` saying why. */
  async function verifiedBy(operator: ChatState['operator'], token: string): Promise<VerifiedVisitor> {
    try {
      return await visitorIdentity.verify(operator, token);
    } catch (error) {
      if (error instanceof IdentityTokenError) throw identityInvalid(error.reason, error.message);
      throw error;
    }
  }

  /** The verified visitor session `x-visitor-token` names for this operator, or 401 `identity_invalid` (`session_invalid`). */
  async function sessionOf(ctx: Pick<Context, 'get'> & { state: ChatState }): Promise<IdentitySession> {
    const { operator } = ctx.state;
    const token = ctx.get('x-visitor-token');
    const session = token ? await verifiedVisitors.sessionOf(token) : undefined;
    if (!session || session.operatorId !== operator.id || session.tenantId !== operator.tenantId)
      throw identityInvalid('session_invalid', 'This visitor session is not valid (any more): sign a fresh identity token.');
    return session;
  }

  /**
   * Who starts a conversation: the visitor of the identity token, or of the verified session that
   * `x-visitor-token` names (`POST /chat/identity`); undefined for an unverified visitor, refused
   * (403 `identity_required`) when the operator requires verification.
   */
  async function startingVisitor(
    ctx: Pick<Context, 'get'> & { state: ChatState },
    token: string | undefined,
  ): Promise<VerifiedVisitor | undefined> {
    const { operator } = ctx.state;
    if (token) return verifiedBy(operator, token);
    if (ctx.get('x-visitor-token')) {
      const { userId, name, email } = await sessionOf(ctx);
      return { userId, ...(name !== undefined ? { name } : {}), ...(email !== undefined ? { email } : {}) };
    }
    if (await identities.isRequired(operator)) throw identityRequired();
    return undefined;
  }

  /** While the operator requires verification, an unverified conversation (one started before, too) is refused. */
  const verifiedWhenRequired: Middleware<VisitorState> = async function verifiedWhenRequired(ctx, next) {
    if (!ctx.state.conversation.contact.verified && (await identities.isRequired(ctx.state.operator))) throw identityRequired();
    await next();
  };

  return { verifiedBy, sessionOf, startingVisitor, verifiedWhenRequired };
}
