/** English strings of the studio's cue editor (merged into EN; every key must also be in he-subtitles.ts). */
export const EN_SUBTITLES = {
  se_open: 'Subtitles', se_title: 'Subtitles · {title}', se_back_asset: 'Back to the video',
  // tracks
  se_track: 'Track', se_beside: 'Side by side', se_beside_none: 'No second track', se_published: 'Published (viewers can turn it on)',
  se_download: 'Download {f}', se_no_tracks: 'This video has no subtitles yet. Recognise its speech or upload a WebVTT or SRT file.',
  se_new_track: 'New track', se_language: 'Language', se_recognise: 'Recognise speech', se_upload: 'Upload WebVTT / SRT',
  se_file_too_big: 'The file is over 10 MB.', se_recognising: 'Recognising speech… the cues appear here when it is done.',
  se_track_failed: 'This track could not be made:', se_no_cues: 'No cues to show yet.',
  se_translate: 'Translate', se_translate_into: 'Translate into', se_translating: 'Translating… the cues appear here when it is done.',
  se_src_upload: 'uploaded', se_src_asr: 'recognised', se_src_translation: 'translation', se_src_edited: 'edited',
  // waveform
  se_waveform: 'Audio waveform with the cues', se_wave_loading: 'Drawing the waveform…', se_wave_failed: 'The waveform could not be drawn.',
  se_wave_silent: 'This video has no audio.', se_wave_span: '{n} s shown', se_zoom_in: 'Zoom in', se_zoom_out: 'Zoom out',
  // cue list
  se_cues: 'Cues', se_n_cues: '{n, plural, one {# cue} other {# cues}}', se_n_over: '{n, plural, one {# over a limit} other {# over a limit}}',
  se_play_from: 'Play from {t}', se_cps: '{n} chars/s', se_cps_title: 'Reading speed: characters a second', se_cue_text: 'Text of cue {n}',
  se_flag_reading_speed: 'too fast to read', se_flag_duration_min: 'under 1 s', se_flag_duration_max: 'over 7 s', se_flag_gap: 'too close to the previous cue',
  se_flag_line_length: 'line over 42 characters', se_flag_lines: 'more than 2 lines',
  // selected cue
  se_selected: 'Cue {n}', se_pick_cue: 'Pick a cue in the list or on the waveform.', se_set_start: 'Start here', se_set_end: 'End here',
  se_split: 'Split at the playhead', se_merge: 'Merge with next', se_insert: 'New cue here', se_delete: 'Delete cue',
  se_insert_text: 'Text of the new cue', se_insert_add: 'Add', se_confirm_delete: 'Delete the cue at {t}? Undo brings it back.',
  se_changed_elsewhere: 'Someone else changed this track a moment ago: it was read again. Make your change once more.',
  // shortcuts
  se_shortcuts: 'Keyboard shortcuts', se_k_toggle: 'Play / pause', se_k_back: 'Back 2 seconds', se_k_forward: 'Forward 2 seconds',
  se_k_set_start: 'Selected cue starts at the playhead', se_k_set_end: 'Selected cue ends at the playhead', se_k_next: 'Next cue',
  se_k_prev: 'Previous cue', se_k_split: 'Split the selected cue at the playhead (or at the cursor in its text)', se_k_merge: 'Merge with the next cue',
  se_k_insert: 'New cue at the playhead', se_k_delete: 'Delete the selected cue', se_k_undo: 'Undo the last change', se_k_edit: 'Edit the selected cue\'s text',
  se_k_leave: 'Leave the text (Esc drops the typing, Ctrl+Enter saves)',
  // tools
  se_shift: 'Shift times', se_shift_ms: 'Milliseconds (− earlier)', se_shift_scope: 'Which cues', se_shift_all: 'All cues',
  se_shift_following: 'Selected cue and later', se_shift_apply: 'Shift', se_shift_err: 'Type a whole number of milliseconds, e.g. 500 or −250.',
  se_find: 'Find and replace', se_find_text: 'Find', se_replace_text: 'Replace with', se_whole_word: 'Whole words', se_match_case: 'Match case',
  se_found: '{n, plural, =0 {not found} one {in # cue} other {in # cues}}', se_find_prev: 'Previous', se_find_next: 'Next', se_replace_all: 'Replace all',
  se_apply_glossary: 'Apply the glossary', se_replaced: '{n, plural, one {# replacement} other {# replacements}} in {cues, plural, one {# cue} other {# cues}}',
  se_replaced_none: 'Nothing to replace.', se_glossary_hints: 'Glossary suggestions (a spelling the glossary corrects is in the text):',
  se_in_cues: '{n, plural, one {in # cue} other {in # cues}}',
  se_revisions: 'Changes', se_no_revisions: 'No changes yet.', se_undo: 'Undo', se_undone: 'undone', se_system: 'system', se_author_key: 'API key',
  se_op_insert: 'New cue', se_op_edit: 'Edit', se_op_delete: 'Deleted', se_op_split: 'Split', se_op_merge: 'Merge', se_op_shift: 'Shift',
  se_op_replace: 'Replace', se_op_glossary: 'Glossary', se_op_undo: 'Undo',
};
