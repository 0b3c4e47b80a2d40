import ArgumentParser

/// The `thumbs` command line: thumbnails and the views behind them.
@main
struct ThumbsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbs",
        abstract: "Video thumbnails from MP4 files, fetching only the bytes they need.",
        version: ThumbsVersion.text,
        subcommands: [ThumbnailCommand.self, BatchCommand.self, AnimateCommand.self, StoryboardCommand.self, InfoCommand.self, DecodeCommand.self, ServeCommand.self, WorkerCommand.self]
    )
}
