/*VS-PLACEHOLDER: scripts/build.ts writes the bundled player here before compiling the binary; development builds from assets-ui/player/embed.ts on first request*/
