import Foundation

exit(BenchCommand.main(Array(CommandLine.arguments.dropFirst())))
