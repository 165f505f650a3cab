import { AppError, type FieldError } from '../../kernel/errors';

/**
 * argon2id parameters: 19 MiB and 2 passes (OWASP's minimum recommendation for argon2id), so a sign-in costs tens of
 * milliseconds on the appliance's CPU while an offline guess costs the same memory-hard work.
 */
export const ARGON2 = { algorithm: 'argon2id', memoryCost: 19_456, timeCost: 2 } as const;

const COMMON = new Set([
  'password', 'password1', 'password123', '1234567890', '12345678910', 'qwertyuiop', 'iloveyou12', 'letmein123',
  'admin12345', 'welcome123', 'viewstream', 'changeme123', 'abcdefghij', '0987654321', 'qwerty1234',
]);

/** Reasons a password is refused (empty when acceptable): 10-200 characters, not common, not the e-mail, not one repeated character. */
export function passwordProblems(pw: string, email?: string, field = 'password'): FieldError[] {
  const out: FieldError[] = [];
  if (!pw) return [{ field, detail: 'empty: choose a password of at least 10 characters' }];
  if ([...pw].length < 10) out.push({ field, detail: 'too short: at least 10 characters' });
  if (pw.length > 200) out.push({ field, detail: 'too long: at most 200 characters' });
  if (/^(.)\1*$/u.test(pw)) out.push({ field, detail: 'one character repeated' });
  if (COMMON.has(pw.toLowerCase())) out.push({ field, detail: 'too common' });
  if (email && pw.toLowerCase().includes(email.toLowerCase().split('@')[0]) && email.split('@')[0].length >= 4) out.push({ field, detail: 'contains the e-mail name' });
  return out;
}

/** Throws 422 with every reason when a password is weak. */
export function checkPassword(pw: string, email?: string, field = 'password'): void {
  const problems = passwordProblems(pw, email, field);
  if (problems.length) throw new AppError('validation_error', `weak password: ${problems.map((p) => p.detail).join('; ')}`, { errors: problems });
}

/** Hashes a password with argon2id. */
export function hashPassword(pw: string): Promise<string> {
  return Bun.password.hash(pw, ARGON2);
}

/** Verifies a password against its PHC string. */
export function verifyPassword(pw: string, hash: string): Promise<boolean> {
  return Bun.password.verify(pw, hash);
}

/** Normalizes an e-mail address (trimmed, lowercase) or throws 422. */
export function normEmail(email: string, field = 'email'): string {
  const e = email.trim().toLowerCase();
  if (e.length > 254 || !/^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/.test(e)) {
    throw new AppError('validation_error', `${field}: not an e-mail address`, { errors: [{ field, detail: 'not an e-mail address' }] });
  }
  return e;
}
