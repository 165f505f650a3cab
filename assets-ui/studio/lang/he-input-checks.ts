/** Hebrew strings of a channel's input checks panel (the same keys as en-input-checks.ts). */
export const HE_INPUT_CHECKS = {
  ic_title: 'בדיקות אות', ic_intro: 'האות המשודר נבדק לתמונה שחורה, תמונה קפואה, שקט ועוצמת שמע (EBU R128). כל מצב מדווח אחרי שהוא נמשך הזמן שנקבע כאן; מוניטורים יכולים להתריע עליו.',
  ic_check: 'בדיקה', ic_state: 'עכשיו', ic_settings: 'ספים', ic_black: 'תמונה שחורה', ic_freeze: 'תמונה קפואה', ic_silence: 'שקט', ic_loudness: 'עוצמת שמע',
  ic_off: 'כבויה', ic_ok: 'תקין', ic_waiting: 'ממתין לאות', ic_active_since: 'מאז {t}', ic_enabled: 'פעילה',
  ic_min_s: 'אחרי (שניות)', ic_pixel: 'רמת פיקסל כהה (0–255)', ic_noise_db: 'רעש (dB)', ic_silence_db: 'שקט מתחת ל- (dBFS)',
  ic_target: 'יעד (LUFS)', ic_tolerance: 'סטייה מותרת (LU)', ic_momentary: 'רגעית', ic_short: 'לטווח קצר', ic_integrated: 'משולבת',
  ic_save: 'שמירת בדיקות האות', ic_saved: 'בדיקות האות נשמרו.', ic_input: 'מנתח את הקלט המשודר ({input})', ic_not_running: 'אין ניתוח: הפעילו בדיקה ושדרו בערוץ.',
  ic_lufs: '{v} LUFS (עוצמה)',
  ev_channel_input_black: 'תמונה שחורה בשידור', ev_channel_input_freeze: 'תמונה קפואה בשידור', ev_channel_input_silence: 'שקט בשידור', ev_channel_input_loudness: 'עוצמת שמע מחוץ לטווח בשידור',
  ck_input_black: 'תמונה שחורה', ck_input_freeze: 'תמונה קפואה', ck_input_silence: 'שמע שקט', ck_input_loudness: 'עוצמת שמע מחוץ לטווח',
};
