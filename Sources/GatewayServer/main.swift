import Foundation
import Gateway
import Outbound

// libcurl must be initialised before any other thread starts.
Curl.globalInit()
let code = await GatewayCommand.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
exit(code)
