package dev.taskagent.internal;

import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;

/**
 * Fitting a page of a listing into a token budget, the one way every listing tool does it: a page whose text takes
 * more than the budget is read again with as many items as its share of the budget allows, until it fits or holds
 * one item, so that a result's own budget never cuts off the cursor at a page's end.
 *
 * <p>Thread-safe (stateless).
 */
public final class Pages {
    private Pages() {}

    /**
     * A page and its text.
     *
     * @param page the page
     * @param text its text
     * @param tokens the text's estimated tokens
     * @param <P> the page's type
     */
    public record Fitted<P>(P page, String text, int tokens) {}

    /**
     * Reads and renders the largest page, up to {@code limit} items, whose text fits {@code budget} estimated tokens;
     * each page read is rendered once. A page of one item is returned even when its text takes more: the caller
     * decides how to show it.
     *
     * @param limit the page size asked for; at least 1
     * @param budget the most tokens (estimated, {@link Texts#estimateTokens}) the text may take
     * @param read reads the page of a size
     * @param render renders a page
     * @param size how many items a page read holds (fewer than asked at a listing's end)
     * @param <P> the page's type
     * @return the page and its text
     */
    public static <P> Fitted<P> fit(
            int limit, int budget, IntFunction<P> read, Function<P, String> render, ToIntFunction<P> size) {
        P page = read.apply(limit);
        String text = render.apply(page);
        int shown = size.applyAsInt(page);
        int tokens = Texts.estimateTokens(text);
        while (shown > 1 && tokens > budget) {
            page = read.apply(Math.max(1, Math.min(shown - 1, (int) ((long) shown * budget / tokens))));
            text = render.apply(page);
            shown = size.applyAsInt(page);
            tokens = Texts.estimateTokens(text);
        }
        return new Fitted<>(page, text, tokens);
    }
}
