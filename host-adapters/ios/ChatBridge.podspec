# The chat bridge's iOS pod: the same sources and scripts as Package.swift. An app adds it with
# `pod 'ChatBridge', :path => '../node_modules/chat-bridge/host-adapters/ios'` (README.md).
require 'json'

package = JSON.parse(File.read(File.join(__dir__, '..', '..', 'package.json')))
repository = package['repository'].is_a?(Hash) ? package['repository']['url'] : package['repository']

Pod::Spec.new do |s|
  s.name         = 'ChatBridge'
  s.version      = package['version']
  s.summary      = 'Receiver and scripts of the chat-bridge WebView bridge for WKWebView'
  s.description  = package['description']
  s.license      = { :type => package['license'] }
  s.homepage     = package['homepage'] || 'https://www.npmjs.com/package/chat-bridge'
  s.author       = package['author'] || 'chat-bridge'
  s.source       = { :git => repository.to_s.sub(/^git\+/, ''), :tag => "v#{s.version}" }

  s.ios.deployment_target = '13.0'
  s.swift_version = '5.5'
  s.source_files = 'Sources/ChatBridge/**/*.swift'
  # Copied from the npm package's dist/ by its build; loaded by ChatBridgeScripts.
  s.resource_bundles = { 'ChatBridge' => ['Sources/ChatBridge/Resources/*.js'] }
  s.frameworks = 'WebKit'
end
