/** Languages the player speaks; he and ar are right-to-left. */
export type Lang = 'en' | 'he' | 'ar' | 'ru';
/** True for right-to-left languages. */
export const isRtl = (l: Lang) => l === 'he' || l === 'ar';

const KEYS = ['play', 'pause', 'mute', 'unmute', 'volume', 'seek', 'captions', 'captionsOff', 'quality', 'auto', 'speed', 'normal',
  'pip', 'fullscreen', 'exitFullscreen', 'cinema', 'live', 'backToLive', 'restart', 'settings', 'resumeAsk', 'resumeYes', 'resumeNo',
  'error', 'chapters', 'player', 'ad', 'skipAd', 'drm', 'denied', 'blackout', 'close', 'loading', 'now', 'next'] as const;
/** A string key. */
export type Key = typeof KEYS[number];

/** Every string in the four languages (complete: a unit test checks each key in each language). */
export const STRINGS: Record<Lang, Record<Key, string>> = {
  en: {
    play: 'Play', pause: 'Pause', mute: 'Mute', unmute: 'Unmute', volume: 'Volume', seek: 'Seek', captions: 'Captions', captionsOff: 'Off',
    quality: 'Quality', auto: 'Auto', speed: 'Speed', normal: 'Normal', pip: 'Picture in picture', fullscreen: 'Full screen',
    exitFullscreen: 'Exit full screen', cinema: 'Cinema mode', live: 'LIVE', backToLive: 'Back to live', restart: 'Watch from the start',
    settings: 'Settings', resumeAsk: 'Resume from {t}?', resumeYes: 'Resume', resumeNo: 'Start over', error: 'This video cannot be played',
    chapters: 'Chapters', player: 'Video player', ad: 'Advertisement', skipAd: 'Skip ad', drm: 'Protected content is not available',
    denied: 'This video cannot be shown on this site', blackout: 'This programme is not available in your region', close: 'Close', loading: 'Loading', now: 'Now', next: 'Next',
  },
  he: {
    play: 'הפעלה', pause: 'השהיה', mute: 'השתקה', unmute: 'ביטול השתקה', volume: 'עוצמת קול', seek: 'מיקום בסרטון', captions: 'כתוביות', captionsOff: 'כבויות',
    quality: 'איכות', auto: 'אוטומטי', speed: 'מהירות', normal: 'רגילה', pip: 'תמונה בתוך תמונה', fullscreen: 'מסך מלא',
    exitFullscreen: 'יציאה ממסך מלא', cinema: 'מצב קולנוע', live: 'שידור חי', backToLive: 'חזרה לשידור החי', restart: 'צפייה מההתחלה',
    settings: 'הגדרות', resumeAsk: 'להמשיך מ-{t}?', resumeYes: 'המשך צפייה', resumeNo: 'מההתחלה', error: 'לא ניתן להפעיל את הסרטון',
    chapters: 'פרקים', player: 'נגן וידאו', ad: 'פרסומת', skipAd: 'דילוג על הפרסומת', drm: 'תוכן מוגן אינו זמין',
    denied: 'לא ניתן להציג את הסרטון באתר זה', blackout: 'התוכנית אינה זמינה באזור שלך', close: 'סגירה', loading: 'טוען', now: 'עכשיו', next: 'הבא',
  },
  ar: {
    play: 'تشغيل', pause: 'إيقاف مؤقت', mute: 'كتم الصوت', unmute: 'إلغاء كتم الصوت', volume: 'مستوى الصوت', seek: 'موضع التشغيل', captions: 'الترجمة', captionsOff: 'إيقاف',
    quality: 'الجودة', auto: 'تلقائي', speed: 'السرعة', normal: 'عادية', pip: 'صورة داخل صورة', fullscreen: 'ملء الشاشة',
    exitFullscreen: 'الخروج من ملء الشاشة', cinema: 'وضع السينما', live: 'مباشر', backToLive: 'العودة إلى البث المباشر', restart: 'المشاهدة من البداية',
    settings: 'الإعدادات', resumeAsk: 'المتابعة من {t}؟', resumeYes: 'متابعة', resumeNo: 'من البداية', error: 'لا يمكن تشغيل هذا الفيديو',
    chapters: 'الفصول', player: 'مشغل الفيديو', ad: 'إعلان', skipAd: 'تخطي الإعلان', drm: 'المحتوى المحمي غير متاح',
    denied: 'لا يمكن عرض هذا الفيديو على هذا الموقع', blackout: 'هذا البرنامج غير متاح في منطقتك', close: 'إغلاق', loading: 'جارٍ التحميل', now: 'الآن', next: 'التالي',
  },
  ru: {
    play: 'Воспроизвести', pause: 'Пауза', mute: 'Выключить звук', unmute: 'Включить звук', volume: 'Громкость', seek: 'Позиция', captions: 'Субтитры', captionsOff: 'Выкл.',
    quality: 'Качество', auto: 'Авто', speed: 'Скорость', normal: 'Обычная', pip: 'Картинка в картинке', fullscreen: 'Во весь экран',
    exitFullscreen: 'Выйти из полноэкранного режима', cinema: 'Режим кинотеатра', live: 'ЭФИР', backToLive: 'Вернуться в эфир', restart: 'Смотреть с начала',
    settings: 'Настройки', resumeAsk: 'Продолжить с {t}?', resumeYes: 'Продолжить', resumeNo: 'С начала', error: 'Не удаётся воспроизвести видео',
    chapters: 'Главы', player: 'Видеоплеер', ad: 'Реклама', skipAd: 'Пропустить рекламу', drm: 'Защищённый контент недоступен',
    denied: 'Это видео нельзя показать на этом сайте', blackout: 'Эта программа недоступна в вашем регионе', close: 'Закрыть', loading: 'Загрузка', now: 'Сейчас', next: 'Далее',
  },
};

/** Picks a supported language: an explicit one, else the page's, else English. */
export function pickLang(explicit: string | null | undefined): Lang {
  const cand = [explicit, document.documentElement.lang, navigator.language].map((s) => (s ?? '').slice(0, 2).toLowerCase());
  for (const c of cand) if (c in STRINGS) return c as Lang;
  return 'en';
}

/** Formats seconds as m:ss or h:mm:ss (digits stay Western in every language, isolated for bidi). */
export function fmtTime(s: number): string {
  if (!Number.isFinite(s) || s < 0) s = 0;
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = Math.floor(s % 60);
  const mm = h ? String(m).padStart(2, '0') : String(m);
  return `${h ? `${h}:` : ''}${mm}:${String(sec).padStart(2, '0')}`;
}
