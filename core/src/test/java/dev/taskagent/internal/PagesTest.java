package dev.taskagent.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PagesTest {
    /** Items of about 25 estimated tokens each. */
    private static final List<String> ITEMS = IntStream.range(0, 50)
            .mapToObj(i -> "item " + i + " " + "word ".repeat(20))
            .toList();

    private final List<Integer> reads = new ArrayList<>();

    private List<String> read(int size) {
        reads.add(size);
        return ITEMS.subList(0, Math.min(size, ITEMS.size()));
    }

    private static String render(List<String> page) {
        return page.stream().collect(Collectors.joining("\n"));
    }

    @Test
    void aPageWithinTheBudgetIsReadOnce() {
        Pages.Fitted<List<String>> fitted = Pages.fit(10, 10_000, this::read, PagesTest::render, List::size);

        assertThat(fitted.page()).hasSize(10);
        assertThat(fitted.text()).isEqualTo(render(ITEMS.subList(0, 10)));
        assertThat(fitted.tokens()).isEqualTo(Texts.estimateTokens(fitted.text()));
        assertThat(reads).containsExactly(10);
    }

    @Test
    void aPageOverTheBudgetIsReadAgainSmallerUntilItFits() {
        int budget = Texts.estimateTokens(render(ITEMS.subList(0, 7)));

        Pages.Fitted<List<String>> fitted = Pages.fit(40, budget, this::read, PagesTest::render, List::size);

        assertThat(fitted.tokens()).isLessThanOrEqualTo(budget);
        assertThat(fitted.page().size()).isBetween(5, 7);
        assertThat(reads).first().isEqualTo(40);
        assertThat(reads).as("each read smaller than the last").isSortedAccordingTo((a, b) -> b - a);
        assertThat(reads).doesNotHaveDuplicates();
    }

    @Test
    void aSingleItemOverTheBudgetIsReturnedForTheCallerToShorten() {
        Pages.Fitted<List<String>> fitted = Pages.fit(10, 3, this::read, PagesTest::render, List::size);

        assertThat(fitted.page()).hasSize(1);
        assertThat(fitted.tokens()).isGreaterThan(3);
    }

    @Test
    void theEndOfAListingIsOnePageHoldingFewerThanAsked() {
        Pages.Fitted<List<String>> fitted = Pages.fit(10, 10, size -> List.<String>of(), PagesTest::render, List::size);

        assertThat(fitted.page()).isEmpty();
        assertThat(fitted.text()).isEmpty();
    }
}
