/** English strings of the studio's asset pages (merged into EN; every key must also be in he-asset.ts). */
export const EN_ASSET = {
  // poster and sprite picker
  ap_poster_title: 'Poster', ap_poster_intro: 'Pick a frame from the strip or pause the player where you want, then use it as the poster.',
  ap_current_poster: 'Current poster', ap_frames: 'Frames of this video', ap_frame_at: 'Frame at {t}', ap_no_frames: 'No thumbnail frames for this video.',
  ap_use_frame: 'Use the frame at {t}', ap_use_player: 'Use the current player frame', ap_poster_saving: 'Drawing the frame…', ap_poster_saved: 'The poster is now the frame at {t}.',
  ap_pick_first: 'Pick a frame first.', ap_no_player: 'The player is not ready yet.',
  // metadata
  ap_meta_title: 'Metadata', ap_meta_intro: 'Text values as rows; anything else (numbers, lists, objects) as JSON below.',
  ap_key: 'Key', ap_value: 'Value', ap_add_row: 'Add a row', ap_remove_row: 'Remove row {n}', ap_no_rows: 'No text values yet.',
  ap_json: 'Other values (JSON object)', ap_save_meta: 'Save metadata and ad cues', ap_meta_saved: 'Metadata and ad cues saved.',
  ap_err_key_empty: 'Row {n}: the key is empty.', ap_err_key_dup: 'The key "{k}" is used twice.', ap_err_key_ads: 'Row {n}: "ads" is edited under Ad cues.',
  ap_err_json: 'The JSON is not valid: {m}', ap_err_json_obj: 'The JSON must be an object: {"key": value, …}.', ap_err_json_ads: 'Ad cues are edited under Ad cues, not in the JSON.',
  // ad cues
  ap_ads_title: 'Ad cues', ap_ads_disabled: 'No ads on this video', ap_cue_at: 'Ad cue at {t}', ap_cues_bar: 'Ad cues on the timeline',
  ap_add_cue_player: 'Add a cue at the player time', ap_cue_seconds: 'Cue time (seconds)', ap_add_cue: 'Add cue', ap_sort_cues: 'Sort cues',
  ap_remove_cue: 'Remove the cue at {t}', ap_no_cues: 'No ad cues: ads play only before the video, if any.', ap_cues_max: 'At most {n} cues.',
  ap_n_cues: '{n} of {max} cues', ap_err_cue: 'A cue is a number of seconds, 0 or more.', ap_err_cues_max: 'There are {n} cues; at most {max} are allowed.',
  ap_cue_past_end: 'This cue is after the end of the video.', ap_seek: 'Play from {t}',
  // sections
  sec_title: 'Sections', sec_intro: 'Group the library into sections (a section can have its own player configuration).', sec_none: 'No section',
  sec_of_asset: 'Section', sec_saved: 'Section saved.', sec_name: 'Section name', sec_create: 'Create section', sec_empty: 'No sections yet. Create the first one above.',
  sec_assets: 'Assets', sec_rename: 'Rename', sec_rename_n: 'Rename {name}', sec_delete_n: 'Delete {name}', sec_confirm_delete: 'Delete the section "{name}"? Its assets stay in the library without a section.',
  sec_created: 'Section "{name}" created.', sec_renamed: 'Section renamed to "{name}".', sec_deleted: 'Section "{name}" deleted.', sec_name_needed: 'Give the section a name.',
  sec_manage: 'Manage sections',
  sec_open_n: 'Show the {n} assets of {name}', sec_open_hint: 'Select a count to list that section\'s assets; the library also filters by section.',
  lib_section_filter: 'Section', lib_all_sections: 'All sections', lib_section_unknown: 'Unknown section',
  lib_section_empty: 'No assets in the section {name}.', lib_no_unsectioned: 'Every asset is in a section.',
  // library bulk actions
  lib_select_row: 'Select {title}', lib_select_all: 'Select all shown', lib_bulk_actions: 'Actions on the selected assets',
  lib_n_selected: '{n, plural, one {# asset selected} other {# assets selected}}', lib_bulk_move_to: 'Section to move to', lib_bulk_move: 'Move to section',
  lib_bulk_clear: 'Clear selection', lib_bulk_confirm_trash: '{n, plural, one {Move # asset to the trash?} other {Move # assets to the trash?}} They can be restored until the trash is emptied.',
  lib_bulk_done: '{n, plural, one {# asset changed.} other {# assets changed.}}', lib_bulk_failed: '{n, plural, one {# asset was not changed} other {# assets were not changed}}',
  // description and tags (metadata.description, metadata.tags)
  ap_description: 'Description', ap_description_hint: 'Shown on the watch page and to search engines.', ap_tags: 'Tags',
  ap_tags_placeholder: 'news, weather, Tel Aviv',
  // per-video statistics, MP4 download, statistics export from the dashboard
  as_title: 'Statistics of this video', as_export_csv: 'Download its viewing sessions (CSV)', ap_download_mp4: 'Download MP4',
  dash_export: 'Export', dash_export_report: 'Report', dash_export_csv: 'Download CSV',
  rep_sessions: 'Viewing sessions', rep_player_events: 'Player events', rep_edge_requests: 'Delivery requests', rep_site_events: 'Site events', rep_programmes: 'Programmes',
  // dashboard: studio playback is not audience
  dash_studio_now: 'Previews in the studio now: {n} (not counted as audience)',
};
