/** The part of `ssh2-sftp-client` (Apache-2.0, on `ssh2`, MIT) the SFTP destination uses; the package ships no types. */
declare module 'ssh2-sftp-client' {
  interface ConnectOptions {
    host: string; port: number; username: string; password?: string; privateKey?: string | Buffer;
    readyTimeout?: number; retries?: number; hostVerifier?: (key: Buffer) => boolean;
  }
  export default class SftpClient {
    constructor(name?: string);
    connect(o: ConnectOptions): Promise<unknown>;
    put(src: Buffer | string, dst: string): Promise<string>;
    rename(from: string, to: string): Promise<string>;
    exists(path: string): Promise<false | 'd' | '-' | 'l'>;
    delete(path: string, noErrorOK?: boolean): Promise<string>;
    end(): Promise<boolean>;
  }
}
