/** A media failure with a readable message; `permanent` when retrying cannot help (the file itself is bad). */
export class MediaError extends Error {
  constructor(message: string, readonly permanent: boolean) { super(message); this.name = 'MediaError'; }
}
