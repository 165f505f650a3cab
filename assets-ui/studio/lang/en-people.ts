/**
 * English strings of sign-in (reasons, forgot password), team members (remove, password reset), publishing
 * (publish, unpublish, share link, embed code) and problem reasons. Merged into EN; every key also in he-people.ts.
 */
export const EN_PEOPLE = {
  // sign-in
  si_forgot: 'Forgot your password?', si_forgot_title: 'Reset your password', si_forgot_intro: 'Enter the e-mail address of your studio account: we send a link to choose a new password.',
  si_forgot_send: 'Send the link', si_forgot_sent: 'If the address belongs to an account, a link is on its way. It is valid for one hour. No mail? Ask a team admin to send you a reset link.',
  si_back: 'Back to sign-in',
  // problem reasons by code
  pr_invalid_credentials: 'Wrong e-mail address or password.', pr_rate_limited: 'Too many attempts. Try again in {s} seconds.', pr_rate_limited_soon: 'Too many attempts. Try again in a moment.',
  pr_validation_error: 'Some of the details are not valid.', pr_not_an_email: 'That is not an e-mail address.', pr_forbidden: 'Your role does not allow this.', pr_insufficient_scope: 'Your role does not allow this.',
  pr_not_found: 'It is not there any more.', pr_conflict: 'That cannot be done in the current state.', pr_gone: 'This link was already used or has expired.',
  pr_unauthorized: 'Please sign in again.', pr_network: 'The connection failed. Check the network and try again.', pr_server: 'The server could not do this right now.',
  pr_weak_password: 'The password is too weak: at least 10 characters, not a common one and not your e-mail name.', pr_last_owner: 'This is the organisation\'s last owner.',
  // team
  tm_remove: 'Remove', tm_remove_n: 'Remove {name} from the team', tm_confirm_remove: 'Remove {name} from the team? They lose access at once.', tm_removed: '{name} was removed from the team.',
  tm_reset: 'Send password reset', tm_reset_n: 'Send {name} a password reset', tm_reset_mailed: 'A reset link was e-mailed to {name}.', tm_reset_link: 'No mail server is set up: send {name} this link yourself (valid for one hour).',
  tm_you: 'you', tm_role_saved: 'The role of {name} is now {role}.',
  // publishing and sharing
  pub_unpublish: 'Unpublish', pub_confirm_unpublish: 'Unpublish this video? It goes back to draft: sites and feeds stop listing it.', pub_draft: 'draft',
  pub_state_published: 'Published: sites and feeds list it.', pub_state_draft: 'Draft: only the studio lists it.',
  pub_share: 'Share and embed', pub_watch_link: 'Watch page', pub_embed_code: 'Embed code', pub_open_watch: 'Open the watch page',
  pub_share_draft: 'The video is a draft; the link works for anyone who has it, but it is not listed until you publish it.',
  c_to_library_publish: 'Publish to the library', c_to_library_draft: 'Add to the library as a draft', c_vod_published: 'Published in the library', c_vod_draft: 'In the library as a draft',
  kbps: '{n} kb/s', ren_audio: 'Audio only',
};
