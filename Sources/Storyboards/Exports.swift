// Storyboards are made from thumbnails: `import Storyboards` brings `Thumbs` (and what it re-exports) with it.
@_exported import Thumbs
