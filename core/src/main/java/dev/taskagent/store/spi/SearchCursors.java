package dev.taskagent.store.spi;

import dev.taskagent.store.SearchCursorException;
import dev.taskagent.store.SearchQuery;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;

/**
 * The cursors of a search (TS-13.4): opaque texts that carry where the previous page ended and which tasks the
 * search covers, shared by the stores so that each refuses a bad cursor the same way.
 *
 * <p>A cursor holds the task id the first page was bounded by (its watermark: later tasks are not part of the
 * search), the rank and id of the last task returned, a digest of the query's {@linkplain
 * SearchQuery#canonicalForm() words and filters}, and a check digest over all of it: a cursor of another query,
 * or one with a character changed, added or cut, is refused with {@link SearchCursorException}. The check is
 * against mistakes, not a secret: a cursor only continues a search its holder may run anyway.
 *
 * <p>Thread-safe (stateless).
 */
public final class SearchCursors {
    private static final byte FORMAT = 1;
    private static final int DIGEST_BYTES = 8;
    private static final int LENGTH = 1 + DIGEST_BYTES + Long.BYTES + Double.BYTES + Long.BYTES + DIGEST_BYTES;
    private static final byte[] CHECK_SALT = "taskagent search cursor".getBytes(StandardCharsets.UTF_8);

    private SearchCursors() {}

    /**
     * Where a page ends.
     *
     * @param watermark the highest task id the search covers
     * @param rank the rank of the last task returned
     * @param lastId the id of the last task returned
     */
    public record Position(long watermark, double rank, long lastId) {

        /**
         * Tells whether a match comes after this position in the order of a search: rank descending, then id
         * descending.
         *
         * @param otherRank the match's rank
         * @param otherId the match's id
         * @return true when it belongs to a later page
         */
        public boolean precedes(double otherRank, long otherId) {
            int byRank = Double.compare(otherRank, rank);
            return byRank < 0 || (byRank == 0 && otherId < lastId);
        }
    }

    /**
     * Writes the cursor that continues a query after a task.
     *
     * @param query the query
     * @param position where the page ended
     * @return the cursor
     */
    public static String encode(SearchQuery query, Position position) {
        ByteBuffer buffer = ByteBuffer.allocate(LENGTH);
        buffer.put(FORMAT);
        buffer.put(queryDigest(query));
        buffer.putLong(position.watermark());
        buffer.putDouble(position.rank());
        buffer.putLong(position.lastId());
        buffer.put(check(Arrays.copyOf(buffer.array(), LENGTH - DIGEST_BYTES)));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(buffer.array());
    }

    /**
     * Reads the cursor of a query, if it has one.
     *
     * @param query the query
     * @return where the previous page ended; empty for the first page
     * @throws SearchCursorException if the cursor was not written for this query's words and filters, or was
     *     changed or cut
     */
    public static Optional<Position> decode(SearchQuery query) {
        if (query.cursor().isEmpty()) {
            return Optional.empty();
        }
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(query.cursor().get());
        } catch (IllegalArgumentException e) {
            throw invalid("it is not a cursor a search returned");
        }
        if (bytes.length != LENGTH
                || bytes[0] != FORMAT
                || !Base64.getUrlEncoder()
                        .withoutPadding()
                        .encodeToString(bytes)
                        .equals(query.cursor().get())) {
            throw invalid("it is not a cursor a search returned (changed or cut)");
        }
        byte[] expected = check(Arrays.copyOf(bytes, LENGTH - DIGEST_BYTES));
        if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(bytes, LENGTH - DIGEST_BYTES, LENGTH))) {
            throw invalid("it was changed or cut");
        }
        if (!MessageDigest.isEqual(queryDigest(query), Arrays.copyOfRange(bytes, 1, 1 + DIGEST_BYTES))) {
            throw new SearchCursorException("The cursor belongs to another search (other words or filters); a"
                    + " cursor continues only the search that returned it. Run this search without a cursor.");
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes, 1 + DIGEST_BYTES, LENGTH - 1 - 2 * DIGEST_BYTES);
        long watermark = buffer.getLong();
        double rank = buffer.getDouble();
        long lastId = buffer.getLong();
        if (watermark < 0 || lastId < 1 || Double.isNaN(rank)) {
            throw invalid("it holds no position");
        }
        return Optional.of(new Position(watermark, rank, lastId));
    }

    private static SearchCursorException invalid(String why) {
        return new SearchCursorException("The cursor cannot be used: " + why + ". Pass the cursor exactly as the"
                + " previous page returned it, or run the search again without a cursor.");
    }

    private static byte[] queryDigest(SearchQuery query) {
        return digest(query.canonicalForm().getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] check(byte[] payload) {
        byte[] salted = Arrays.copyOf(CHECK_SALT, CHECK_SALT.length + payload.length);
        System.arraycopy(payload, 0, salted, CHECK_SALT.length, payload.length);
        return digest(salted);
    }

    private static byte[] digest(byte[] bytes) {
        try {
            return Arrays.copyOf(MessageDigest.getInstance("SHA-256").digest(bytes), DIGEST_BYTES);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
