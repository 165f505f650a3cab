declare module '*.so' {
  const path: string;
  export default path;
}

/** mux.js's H.264 elementary-stream reader (no types of its own): used for the SPS facts of src/media/probe-mp4.ts. */
declare module 'mux.js/lib/codecs/h264.js' {
  /** SPS facts as mux.js reads them (sizes after cropping, sample aspect ratio from the VUI, 1:1 when absent). */
  export interface SpsConfig { profileIdc: number; levelIdc: number; profileCompatibility: number; width: number; height: number; sarRatio: [number, number] }
  /** Emits `data` events per NAL unit of the Annex B bytes pushed; an SPS event carries `config`. */
  export class H264Stream {
    on(event: 'data', fn: (ev: { nalUnitTypeCode: number; config?: SpsConfig }) => void): void;
    push(packet: { type: 'video'; data: Uint8Array; trackId: number; pts: number; dts: number }): void;
    flush(): void;
  }
}
