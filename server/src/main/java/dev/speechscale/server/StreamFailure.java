package dev.speechscale.server;

/**
 * Why a stream ended early, as a metric label and as the in-band {@code error} code on the
 * WebSocket.
 */
enum StreamFailure {
  /** The client went away; synthesis was cancelled at the next chunk. */
  CLIENT_DISCONNECTED("client_disconnected"),
  /** The client read so slowly that the bounded buffer filled; synthesis was cancelled. */
  CLIENT_TOO_SLOW("client_too_slow"),
  /** The engine failed. */
  ENGINE_ERROR("engine_error"),
  /** The server shut down before the stream finished draining. */
  SHUTDOWN("shutdown");

  final String code;

  StreamFailure(String code) {
    this.code = code;
  }
}
