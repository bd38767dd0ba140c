/// The chat bridge's Flutter package: the receiver for the `ChatBridgeFlutter` channel, its
/// events, the scripts to evaluate, and the bridge's own scripts as assets.
library chat_bridge;

export 'src/chat_bridge_assets.dart';
export 'src/chat_bridge_process_gone.dart';
export 'src/chat_bridge_receiver.dart';
export 'src/chat_bridge_scripts.dart';
export 'src/chat_event.dart';
export 'src/chunked_file_sender.dart';
