/** English strings of the studio's clips pages (merged into EN; every key must also be in he-clips.ts). */
export const EN_CLIPS = {
  c_programmes: 'Recorded programmes', c_no_programmes: 'No programmes in the last 24 hours. Add them in the guide; clips can still be cut below.',
  c_when: 'When', c_coverage: 'Recorded', c_cut_here: 'Cut on timeline', c_publish_vod: 'Publish to library',
  c_publish_progress: 'Publishing progress', c_vod_remux: 'Copying the recording…', c_vod_library: 'Processing in the library…', c_vod_ready: 'In the library', c_vod_failed: 'Publishing failed',
  c_open_asset: 'Open asset', c_snap: 'Snap to', c_snap_frames: 'frames', c_snap_programmes: 'programme boundaries',
  c_zoom_sel: 'Zoom to selection', c_zoom_out: 'Zoom out', c_recent: 'Latest 2 minutes', c_preview: 'Preview',
  c_no_recording: 'Nothing recorded in this part of the timeline.', c_frames_note: '{n} frames from the recording · {fps} fps · drag the handles, or use the arrow keys (Shift: one segment)',
  c_segments_note: '{n} frames from the recording · {s} segments · the handles land on segment boundaries (arrow keys: one segment)',
  c_frame_hint: 'Cut exactly at the handles; ready after a short job.', c_segment_hint: 'Ready at once; starts and ends at the nearest segment boundaries.',
  st_recorded: 'recorded', st_partial: 'partly recorded', st_not_recorded: 'not recorded', st_publishing: 'publishing',
  // Integrations: inbound hooks and the events inbox.
  h_title: 'Inbound hooks', h_intro: 'Your content system calls this address, signed with the secret, to publish the assets it names.', h_path: 'Path to the asset references in its JSON', h_match: 'The references are',
  h_match_external: 'external IDs', h_match_id: 'asset IDs', h_create: 'Create hook', h_none: 'No inbound hooks yet.', h_address: 'Address', h_secret: 'Signing secret',
  h_secret_once: 'Copy the secret now: it is shown only this once.', h_confirm_delete: 'Delete this inbound hook? Calls to its address will be refused.', h_kind: 'Kind', h_hint: 'Secret',
  i_title: 'Events inbox', i_all: 'All types', i_type: 'Type', i_none: 'No events yet. They appear here as they happen.', i_new: 'new', i_unread: '{n} unread',
  i_mark_read: 'Mark all read', i_more: 'Older events', i_live: 'Live', i_details: 'Details', i_when: 'When',
};
