/** English strings of the FAST schedule editor (every key also in he-fast.ts). */
export const EN_FAST = {
  fast_title: 'FAST schedule', fast_link: 'FAST schedule', fast_intro: 'The channel plays library videos by the clock, without re-encoding them: a playlist that repeats, blocks for times of the day, and ad breaks where each video marks them.',
  fast_none: 'This channel has no FAST schedule yet: pick videos and save.', fast_playlist: 'Playlist', fast_add_video: 'Add a video', fast_pick: 'Video',
  fast_loops: 'Times in a row', fast_up: 'Move up', fast_down: 'Move down', fast_remove: 'Remove “{title}”', fast_empty_list: 'No videos in this playlist.',
  fast_dayparts: 'Times of the day', fast_add_daypart: 'Add a time block', fast_daypart_name: 'Block name', fast_from: 'From', fast_until: 'Until',
  fast_remove_daypart: 'Remove the block', fast_breaks: 'Ad breaks', fast_slate: 'Video shown during breaks', fast_no_slate: 'None (markers only)',
  fast_break_len: 'Break length (seconds)', fast_break_default: 'as long as the video', fast_breaks_at: 'breaks at {cues}', fast_no_breaks: 'no breaks',
  fast_guide_hours: 'Guide hours ahead', fast_enabled: 'On: the channel plays this schedule when started', fast_save: 'Save the schedule', fast_saved: 'Schedule saved (version {v}).',
  fast_delete: 'Delete the schedule', fast_status: 'Preparation', fast_st_ready: 'ready', fast_st_preparing: 'preparing', fast_st_failed: 'failed', fast_st_pending: 'preparing',
  fast_mode_copy: 'stream copy', fast_mode_conform: 're-encoded to the channel', fast_preview: 'Next hour', fast_break: 'Ad break', fast_default_list: 'main playlist',
  fast_sec: '{n} s', fast_renditions: 'Channel renditions', fast_pick_first: 'Choose a video first.',
};
