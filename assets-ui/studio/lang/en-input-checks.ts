/** English strings of a channel's input checks panel (every key also in he-input-checks.ts). */
export const EN_INPUT_CHECKS = {
  ic_title: 'Input checks', ic_intro: 'The on-air signal is watched for black picture, frozen picture, silence and loudness (EBU R128). Each condition is reported after it lasts the time set here; monitors can alert on it.',
  ic_check: 'Check', ic_state: 'Now', ic_settings: 'Thresholds', ic_black: 'Black picture', ic_freeze: 'Frozen picture', ic_silence: 'Silence', ic_loudness: 'Loudness',
  ic_off: 'off', ic_ok: 'normal', ic_waiting: 'waiting for the signal', ic_active_since: 'since {t}', ic_enabled: 'On',
  ic_min_s: 'After (seconds)', ic_pixel: 'Dark pixel level (0–255)', ic_noise_db: 'Noise (dB)', ic_silence_db: 'Silence below (dBFS)',
  ic_target: 'Target (LUFS)', ic_tolerance: 'Tolerance (LU)', ic_momentary: 'Momentary', ic_short: 'Short-term', ic_integrated: 'Integrated',
  ic_save: 'Save the input checks', ic_saved: 'Input checks saved.', ic_input: 'Analysing the on-air input ({input})', ic_not_running: 'Not analysing: enable a check and put the channel on air.',
  ic_lufs: '{v} LUFS',
  ev_channel_input_black: 'Black picture on air', ev_channel_input_freeze: 'Frozen picture on air', ev_channel_input_silence: 'Silence on air', ev_channel_input_loudness: 'Loudness out of range on air',
  ck_input_black: 'Black picture', ck_input_freeze: 'Frozen picture', ck_input_silence: 'Silent audio', ck_input_loudness: 'Loudness out of range',
};
