package dev.taskagent.benchmarks;

import java.util.ArrayList;
import java.util.List;

/** The texts every benchmark task carries, so that all targets move the same amount of data. */
final class Fixtures {
    static final String CREATED_BY = "bench-lead";
    static final String COMMENT_AUTHOR = "reviewer";
    static final String FIRST_COMMENT = "Please look at the failing integration build before anything else.";
    static final String SECOND_COMMENT = "The flaky test is in QueueIT; the logs are attached to the CI run.";
    static final String FIRST_LINK = "https://ci.example.com/runs/18231";
    static final String FIRST_LINK_DESCRIPTION = "CI run with the failure";
    static final String SECOND_LINK = "https://git.example.com/acme/app/pull/412";
    static final String SECOND_LINK_DESCRIPTION = "Pull request under review";

    /**
     * The comments and links above as one JSON document, roughly the bytes a store reads for them: the
     * floor carries it in one column so that it returns as much data as the store does.
     */
    static final String COMMENTS_JSON = "[{\"author\":\"" + COMMENT_AUTHOR + "\",\"text\":\"" + FIRST_COMMENT
            + "\",\"createdAt\":\"2026-01-01T10:00:00Z\"},{\"author\":\"" + COMMENT_AUTHOR + "\",\"text\":\""
            + SECOND_COMMENT + "\",\"createdAt\":\"2026-01-01T10:05:00Z\"}]";

    static final String LINKS_JSON = "[{\"url\":\"" + FIRST_LINK + "\",\"description\":\"" + FIRST_LINK_DESCRIPTION
            + "\",\"author\":\"" + COMMENT_AUTHOR + "\",\"createdAt\":\"2026-01-01T10:00:00Z\"},{\"url\":\""
            + SECOND_LINK + "\",\"description\":\"" + SECOND_LINK_DESCRIPTION + "\",\"author\":\"" + COMMENT_AUTHOR
            + "\",\"createdAt\":\"2026-01-01T10:05:00Z\"}]";

    private Fixtures() {}

    /**
     * The assignee names of a benchmark.
     *
     * @param count how many
     * @return {@code agent-00}, {@code agent-01}, …
     */
    static List<String> assignees(int count) {
        List<String> names = new ArrayList<>(count);
        for (int index = 0; index < count; index++) {
            names.add(String.format("agent-%02d", index));
        }
        return List.copyOf(names);
    }

    /**
     * A description of realistic length.
     *
     * @param number a running number that makes it unique
     * @return the description
     */
    static String description(long number) {
        return "Fix the nightly export job #" + number + ": it stops at the first malformed row instead of"
                + " reporting it and going on";
    }

    /**
     * A progress entry of about a kilobyte of ordinary words, different for each number.
     *
     * @param number which entry
     * @return the entry
     */
    static String progress(int number) {
        StringBuilder text = new StringBuilder("Step " + number + ":");
        String[] words = {
            "checked", "the", "export", "rows", "against", "the", "ledger", "and", "found", "mismatched",
            "totals", "in", "region", "north", "retried", "with", "a", "smaller", "batch", "size"
        };
        for (int index = 0; text.length() < 1000; index++) {
            text.append(' ').append(words[(index * 7 + number) % words.length]).append(index % 13);
        }
        return text.append('.').toString();
    }
}
