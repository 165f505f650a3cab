/**
 * Per-application service slots: objects a feature builds once per running app (caches, catalogues) live in
 * the context created at start instead of module-level variables, so two apps in one process (tests) never share
 * them. A feature declares a typed key and asks the context for its object; the first ask builds it.
 */

/** A typed key of one slot (declare it once, at module level: the key itself holds no state). */
export interface SlotKey<T> { readonly name: string; readonly _type?: T }

/** Declares a slot key; `name` is for debugging only (keys compare by identity). */
export function slotKey<T>(name: string): SlotKey<T> { return Object.freeze({ name }); }

/** The slots of one application context. */
export class Slots {
  private readonly m = new Map<SlotKey<unknown>, unknown>();

  /** The object in slot `k`, built by `make` on first use. */
  get<T>(k: SlotKey<T>, make: () => T): T {
    // One lookup on the common path (read per request by hot paths); `has` only for a slot holding undefined.
    const got = this.m.get(k);
    if (got !== undefined || this.m.has(k)) return got as T;
    const v = make();
    this.m.set(k, v);
    return v;
  }
}
