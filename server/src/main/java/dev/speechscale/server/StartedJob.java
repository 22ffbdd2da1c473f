package dev.speechscale.server;

import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * A request whose turn has started, as its answer is written: what it asked for, the job
 * synthesizing it and the buffer its chunks arrive in, where the answer goes, when it arrived and
 * how long it waited for its execution slot (both on the gate's ticker).
 */
record StartedJob(
    SynthesisRequest request,
    SynthesisJob job,
    ChunkBuffer buffer,
    Response response,
    Callback callback,
    long arrivalNanos,
    long queuedNanos) {}
