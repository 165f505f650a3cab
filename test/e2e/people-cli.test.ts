import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnServe } from '../helpers/proc';
import { waitFor } from '../helpers/server';

const dir = mkdtempSync(join(tmpdir(), 'vs-people-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const data = join(dir, 'data');
const cli = (args: string[], stdin?: string) => Bun.spawnSync(['bun', 'src/main.ts', ...args], { stdout: 'pipe', stderr: 'pipe', stdin: stdin === undefined ? 'ignore' : Buffer.from(stdin), env: { ...process.env, VS_DATA_DIR: data } });

test('first run prints a one-time owner link; it creates the owner; user create with a password or a link', async () => {
  const s = await spawnServe(['bun', 'src/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1'], { VS_DATA_DIR: data });
  try {
    const link = await waitFor('the owner link', () => /(http:\/\/\S+\/studio\/invite\?token=\S+)/.exec(s.output())?.[1]);
    const token = new URL(link!).searchParams.get('token')!;
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) => fetch(s.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    expect((await post('/v1/invitations/accept', { token, password: 'first owner passphrase' })).status).toBe(422); // e-mail required for this link
    const acc = await post('/v1/invitations/accept', { token, email: 'root@example.com', name: 'Root', password: 'first owner passphrase' });
    expect(acc.status).toBe(200);
    const cookie = acc.headers.get('set-cookie')!.split(';')[0];
    const me = await (await fetch(`${s.url}/v1/me`, { headers: { cookie } })).json() as { user: { email: string }; current_tenant: { slug: string; role: string } };
    expect(me).toMatchObject({ user: { email: 'root@example.com' }, current_tenant: { slug: 'default', role: 'owner' } });
    expect((await post('/v1/invitations/accept', { token, email: 'x@example.com', password: 'first owner passphrase' })).status).toBe(410);

    // Scripts: a user with a password from stdin, then one with a link.
    const u = cli(['user', 'create', '--email', 'Eng@Example.com', '--tenant', 'default', '--role', 'engineer', '--password-stdin', '--json'], 'engineer passphrase\n');
    expect(u.exitCode).toBe(0);
    expect(JSON.parse(u.stdout.toString())).toMatchObject({ email: 'eng@example.com', tenant: 'default', role: 'engineer' });
    const signed = await post('/v1/session', { email: 'eng@example.com', password: 'engineer passphrase' });
    expect(signed.status).toBe(200);
    const l = cli(['user', 'create', '--email', 'view@example.com', '--tenant', 'default', '--role', 'viewer', '--json']);
    expect(l.exitCode).toBe(0);
    const out = JSON.parse(l.stdout.toString()) as { accept_url: string };
    const t2 = new URL(out.accept_url).searchParams.get('token')!;
    expect((await post('/v1/invitations/accept', { token: t2, password: 'screen watcher 42' })).status).toBe(200);
    expect(cli(['user', 'create', '--email', 'a@example.com', '--tenant', 'default', '--role', 'emperor']).exitCode).toBe(2);
    expect(cli(['user', 'create', '--email', 'a@example.com', '--tenant', 'nope', '--role', 'viewer']).exitCode).toBe(1);
    expect(cli(['user', 'create', '--email', 'weak@example.com', '--tenant', 'default', '--role', 'viewer', '--password-stdin'], 'short\n').exitCode).toBe(1);
  } finally { s.kill(); await s.proc.exited; }
}, 60_000);
