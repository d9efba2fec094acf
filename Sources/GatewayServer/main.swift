import Crypto
import Foundation
import Gateway
import Outbound

// OpenSSL first (without its exit-time clean-up, see `OpenSSLProcess`), then libcurl, which initialises
// OpenSSL too; both before any other thread starts.
OpenSSLProcess.initialize()
Curl.globalInit()
let code = await GatewayCommand.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
exit(code)
