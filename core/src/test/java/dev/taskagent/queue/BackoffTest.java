package dev.taskagent.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void exponentialDoublesFromTheFirstWaitUpToTheMaximumLessAQuarterAtMost() {
        Backoff backoff = Backoff.exponential(Duration.ofSeconds(10), Duration.ofMinutes(1));

        for (int round = 0; round < 200; round++) {
            assertThat(backoff.delay(1)).isBetween(Duration.ofMillis(7_500), Duration.ofSeconds(10));
            assertThat(backoff.delay(2)).isBetween(Duration.ofSeconds(15), Duration.ofSeconds(20));
            assertThat(backoff.delay(3)).isBetween(Duration.ofSeconds(30), Duration.ofSeconds(40));
            assertThat(backoff.delay(4)).isBetween(Duration.ofSeconds(45), Duration.ofMinutes(1));
            assertThat(backoff.delay(1_000)).isBetween(Duration.ofSeconds(45), Duration.ofMinutes(1));
            assertThat(backoff.delay(Integer.MAX_VALUE)).isBetween(Duration.ofSeconds(45), Duration.ofMinutes(1));
        }
    }

    @Test
    void jitterSpreadsTheWaitsOfTasksThatFailedTogether() {
        Backoff backoff = Backoff.exponential(Duration.ofSeconds(10), Duration.ofHours(1));

        long distinct = java.util.stream.IntStream.range(0, 50)
                .mapToObj(round -> backoff.delay(3))
                .distinct()
                .count();

        assertThat(distinct).isGreaterThan(10);
    }

    @Test
    void theDefaultStartsAtTenSecondsAndStopsAtAnHour() {
        assertThat(Backoff.DEFAULT.delay(1)).isBetween(Duration.ofMillis(7_500), Duration.ofSeconds(10));
        assertThat(Backoff.DEFAULT.delay(30)).isBetween(Duration.ofMinutes(45), Duration.ofHours(1));
    }

    @Test
    void noneAndFixedWaitAsTheySay() {
        assertThat(Backoff.none().delay(5)).isZero();
        assertThat(Backoff.fixed(Duration.ofSeconds(3)).delay(9)).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void outOfRangeArgumentsAreRefused() {
        assertThatThrownBy(() -> Backoff.exponential(Duration.ZERO, Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Backoff.none()");
        assertThatThrownBy(() -> Backoff.exponential(Duration.ofSeconds(-1), Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("first must be between 0 and 3660 days, was PT-1S");
        assertThatThrownBy(() -> Backoff.exponential(Duration.ofSeconds(1), Duration.ofDays(5000)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Backoff.fixed(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Backoff.DEFAULT.delay(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("attempt must be at least 1, was 0");
    }
}
