package dev.taskagent.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock for tests that stands still until told to move. Stores and agents take a {@link Clock}; give
 * them this one to make timestamps predictable.
 *
 * <p>Thread-safe.
 */
public final class MutableClock extends Clock {
    private final AtomicReference<Instant> now;
    private final ZoneId zone;

    private MutableClock(AtomicReference<Instant> now, ZoneId zone) {
        this.now = now;
        this.zone = zone;
    }

    /**
     * A clock standing at an instant, in UTC.
     *
     * @param start the instant
     * @return the clock
     */
    public static MutableClock at(Instant start) {
        return new MutableClock(new AtomicReference<>(Objects.requireNonNull(start, "start")), ZoneOffset.UTC);
    }

    /**
     * A clock standing at 2026-01-01T00:00:00Z.
     *
     * @return the clock
     */
    public static MutableClock standard() {
        return at(Instant.parse("2026-01-01T00:00:00Z"));
    }

    /**
     * Moves the clock forward (or back, with a negative duration).
     *
     * @param amount how far
     * @return the new instant
     */
    public Instant advance(Duration amount) {
        Objects.requireNonNull(amount, "amount");
        return now.updateAndGet(instant -> instant.plus(amount));
    }

    /**
     * Sets the clock.
     *
     * @param instant the new instant
     */
    public void set(Instant instant) {
        now.set(Objects.requireNonNull(instant, "instant"));
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    @Override
    public Clock withZone(ZoneId newZone) {
        return new MutableClock(now, newZone);
    }
}
