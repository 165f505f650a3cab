/** Text of the password reset e-mail (English and Hebrew). */
export function resetMail(link: string): { subject: string; text: string } {
  return {
    subject: 'ViewStream: reset your password / איפוס סיסמה',
    text: `Someone asked to reset the password of this ViewStream account. To choose a new password, open:\n${link}\n\nThe link works once, for one hour. If you did not ask, ignore this message.\n\n`
      + `התקבלה בקשה לאפס את הסיסמה של חשבון ViewStream זה. לבחירת סיסמה חדשה פתחו את הקישור:\n${link}\n\nהקישור תקף פעם אחת, למשך שעה. אם לא ביקשתם, התעלמו מהודעה זו.\n`,
  };
}

/** Text of an invitation e-mail (English and Hebrew). */
export function inviteMail(link: string, tenant: string, role: string, by: string): { subject: string; text: string } {
  return {
    subject: `ViewStream: invitation to ${tenant} / הזמנה ל-${tenant}`,
    text: `${by || 'An administrator'} invited you to the ViewStream team of "${tenant}" as ${role}. To accept, open:\n${link}\n\nThe link works once and expires in 7 days.\n\n`
      + `${by || 'מנהל'} הזמין/ה אתכם לצוות ViewStream של "${tenant}" בתפקיד ${role}. לאישור פתחו את הקישור:\n${link}\n\nהקישור תקף פעם אחת ופג בתוך 7 ימים.\n`,
  };
}
