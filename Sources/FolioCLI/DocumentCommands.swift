let documentCommands: [Command] = []
