/**
 * The admission gate of speech-server: one {@link dev.speechscale.admission.Permit} per admitted
 * request, a bound on requests in flight, FIFO queueing for a fixed number of execution slots, and
 * deadline-aware shedding of queued requests.
 *
 * <h2>What "in flight" means</h2>
 *
 * A request is in flight from the moment it is admitted until its permit is closed: while it waits
 * in the queue, while it holds an execution slot (the engine is synthesizing for it), and while its
 * audio is still being streamed to the client after synthesis ended. This is the number the
 * platform samples as {@code ConcurrentRequestsPerModel}, and the number {@code MAX_QUEUE_DEPTH}
 * bounds: past the bound a request is refused at once ({@link
 * dev.speechscale.admission.Admission.Saturated}), never left to queue past the point where it
 * could meet its SLO.
 *
 * <h2>Release exactly once</h2>
 *
 * The published container incremented a counter on entry and decremented it on some exit paths
 * only, so every malformed request leaked one unit and the endpoint jammed at 503 after 50 bad
 * requests. Here the count is owned by the permit: {@link dev.speechscale.admission.Permit#close()}
 * is idempotent and releases the in-flight unit (and the execution slot, if still held) on the
 * first call only, so try-with-resources makes every path — success, exception, disconnect,
 * cancellation — release exactly once.
 *
 * <h2>Shedding</h2>
 *
 * Each wait for an execution slot carries a deadline for the first audio byte. The gate keeps a
 * moving estimate of how long a started request takes to its first byte; a queued request whose
 * deadline can no longer be met (now + estimate &gt; deadline) is shed before it starts, when it
 * reaches the head of the queue or when its latest useful start time passes while it waits. Only a
 * request that would have to queue is shed: one that finds a free slot with nobody ahead always
 * starts, whatever the estimate says, so one pathological request can never lift the estimate above
 * the deadline and lock the gate (nothing would start, so nothing would correct it); every start
 * feeds the estimate, which then recovers.
 *
 * <p>Time comes from an injected {@link dev.speechscale.platform.NanoClock}, so tests advance a
 * fake clock instead of sleeping.
 */
package dev.speechscale.admission;
