/** m3u8-parser and mpd-parser ship without types: the small surface the interop tests use. */
declare module 'm3u8-parser' {
  export class Parser {
    manifest: any;
    on(event: 'warn' | 'info', fn: (e: { message: string }) => void): void;
    push(text: string): void;
    end(): void;
  }
}
declare module 'mpd-parser' {
  export function parse(text: string, o?: { manifestUri?: string }): any;
}
