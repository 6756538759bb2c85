import Foundation

exit(Dispatcher.run(Array(CommandLine.arguments.dropFirst()), root: StrataCommand.self).rawValue)
