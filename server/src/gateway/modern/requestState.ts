/**
 * The `requestState` MCP Lens hands a modern client with an input-required result: it names the
 * request MCP Lens holds open for it, and the client must send it back unchanged with its answers.
 * The client is untrusted, so the state is HMAC-signed under a key that never leaves this process
 * and binds what the revision says replay protection needs: the principal it was issued to, the
 * request it belongs to (method and the name it addressed) and an expiry. It carries no secret and
 * nothing of the request's arguments.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface HeldRequestClaim {
  /** The held request's id in this gateway. */
  held: string;
  /** Whom it was issued to (a principal's id; never a token), and the id its state is kept under. */
  principal: string;
  session: string;
  /** The request it answers: method, and the tool, prompt or resource it named. */
  method: string;
  name: string;
  /** Expiry, ms since the epoch. */
  exp: number;
}

export class RequestStateSigner {
  private readonly key = randomBytes(32);

  sign(claim: HeldRequestClaim): string {
    const body = Buffer.from(JSON.stringify(claim), 'utf8').toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** The claim, when the state is one this gateway signed and has not expired; else why not. */
  verify(state: string, now: number): HeldRequestClaim | string {
    const dot = state.lastIndexOf('.');
    if (dot <= 0 || state.length > 4096) return 'requestState is not one MCP Lens issued';
    const body = state.slice(0, dot);
    const given = Buffer.from(state.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.mac(body), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return 'requestState failed its integrity check (it was changed, or MCP Lens restarted since)';
    let claim: HeldRequestClaim;
    try {
      claim = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as HeldRequestClaim;
    } catch {
      return 'requestState is not one MCP Lens issued';
    }
    if (typeof claim.exp !== 'number' || claim.exp < now) return 'requestState has expired: send the request again';
    return claim;
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
