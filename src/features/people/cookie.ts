import { SESSION_COOKIE } from '../../kernel/http/auth';

/** Set-Cookie value for a studio session: HttpOnly, SameSite=Lax, Path=/, Secure when the service is behind HTTPS. */
export function sessionCookie(token: string, maxAgeS: number, baseUrl: string): string {
  const secure = baseUrl.startsWith('https://') ? '; Secure' : '';
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${Math.max(0, Math.floor(maxAgeS))}${secure}`;
}

/** Set-Cookie value that removes the session cookie. */
export function clearCookie(baseUrl: string): string {
  return sessionCookie('', 0, baseUrl);
}
