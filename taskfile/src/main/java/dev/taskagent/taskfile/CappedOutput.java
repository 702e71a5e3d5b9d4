package dev.taskagent.taskfile;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.text.NumberFormat;
import java.util.Locale;

/**
 * Keeps the first and the last bytes of a stream, up to a limit, and counts the bytes dropped in between,
 * so that any amount of output costs bounded memory. Rendered as text, the kept bytes are decoded as UTF-8
 * (bad sequences become U+FFFD), control characters are neutralised and a marker says how many bytes
 * were dropped.
 *
 * <p>Thread-safe: several processes of one run (parallel deps) may write at once.
 */
final class CappedOutput {
    private final byte[] head;
    private final byte[] tail;
    private int headSize;
    private int tailStart;
    private int tailSize;
    private long total;

    /**
     * Creates an empty output.
     *
     * @param limit how many bytes to keep at most: half from the start, half from the end
     */
    CappedOutput(int limit) {
        if (limit < 2) {
            throw new IllegalArgumentException("limit must be at least 2, not " + limit);
        }
        this.head = new byte[limit / 2];
        this.tail = new byte[limit - limit / 2];
    }

    /**
     * Appends bytes.
     *
     * @param bytes the buffer
     * @param offset where the bytes start
     * @param length how many bytes
     */
    synchronized void write(byte[] bytes, int offset, int length) {
        total += length;
        int toHead = Math.min(length, head.length - headSize);
        System.arraycopy(bytes, offset, head, headSize, toHead);
        headSize += toHead;
        int rest = length - toHead;
        int from = offset + toHead;
        if (rest >= tail.length) {
            System.arraycopy(bytes, from + rest - tail.length, tail, 0, tail.length);
            tailStart = 0;
            tailSize = tail.length;
        } else if (rest > 0) {
            int end = (tailStart + tailSize) % tail.length;
            int first = Math.min(rest, tail.length - end);
            System.arraycopy(bytes, from, tail, end, first);
            System.arraycopy(bytes, from + first, tail, 0, rest - first);
            int size = tailSize + rest;
            if (size > tail.length) {
                tailStart = (tailStart + size - tail.length) % tail.length;
                tailSize = tail.length;
            } else {
                tailSize = size;
            }
        }
    }

    /**
     * Appends text as UTF-8.
     *
     * @param text the text
     */
    void write(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        write(bytes, 0, bytes.length);
    }

    /** @return how many bytes were written in all */
    synchronized long totalBytes() {
        return total;
    }

    /** @return how many bytes were written but not kept */
    synchronized long droppedBytes() {
        return total - headSize - tailSize;
    }

    /** @return true when bytes were dropped */
    boolean isTruncated() {
        return droppedBytes() > 0;
    }

    /** @return the kept bytes as neutralised text, with a marker where bytes were dropped */
    synchronized String render() {
        long dropped = droppedBytes();
        if (dropped == 0) {
            return neutralise(rawText());
        }
        String start = neutralise(decode(head, 0, headSize));
        byte[] end = tailBytes();
        String marker = "\n[... " + NumberFormat.getIntegerInstance(Locale.ROOT).format(dropped)
                + " bytes dropped: the output was longer than the limit ...]\n";
        return start + marker + neutralise(decode(end, 0, end.length));
    }

    /**
     * Decodes the kept bytes as UTF-8 without neutralising them (for values captured from {@code sh:}).
     *
     * @return the kept bytes as text, without a marker; bad sequences become U+FFFD
     */
    synchronized String rawText() {
        byte[] all = new byte[headSize + tailSize];
        System.arraycopy(head, 0, all, 0, headSize);
        System.arraycopy(tailBytes(), 0, all, headSize, tailSize);
        return decode(all, 0, all.length);
    }

    private byte[] tailBytes() {
        byte[] end = new byte[tailSize];
        int firstPart = Math.min(tailSize, tail.length - tailStart);
        System.arraycopy(tail, tailStart, end, 0, firstPart);
        System.arraycopy(tail, 0, end, firstPart, tailSize - firstPart);
        return end;
    }

    private static String decode(byte[] bytes, int offset, int length) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE)
                    .decode(ByteBuffer.wrap(bytes, offset, length))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IllegalStateException("a replacing decoder reported an error", e);
        }
    }

    /**
     * Makes text safe to show: drops ANSI escape sequences (colours, cursor moves, titles), turns carriage
     * returns into newlines, and replaces other control characters and bidirectional overrides with U+FFFD.
     * Newlines and tabs stay.
     *
     * @param text raw output
     * @return the neutralised text
     */
    static String neutralise(String text) {
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '\u001b') {
                i = skipEscape(text, i);
                continue;
            }
            if (c == '\r') {
                if (i + 1 >= text.length() || text.charAt(i + 1) != '\n') {
                    out.append('\n');
                }
            } else if (c == '\n' || c == '\t') {
                out.append(c);
            } else if (Character.isISOControl(c) || isBidiControl(c)) {
                out.append('\uFFFD');
            } else {
                out.append(c);
            }
            i++;
        }
        return out.toString();
    }

    private static boolean isBidiControl(char c) {
        return (c >= '\u202A' && c <= '\u202E') || (c >= '\u2066' && c <= '\u2069') || c == '\u200E' || c == '\u200F';
    }

    /** Skips an escape sequence starting at {@code i} and returns the index after it. */
    private static int skipEscape(String text, int i) {
        if (i + 1 >= text.length()) {
            return i + 1;
        }
        char kind = text.charAt(i + 1);
        if (kind == '[') {
            int j = i + 2;
            while (j < text.length() && (text.charAt(j) < '@' || text.charAt(j) > '~')) {
                j++;
            }
            return Math.min(j + 1, text.length());
        }
        if (kind == ']') {
            int j = i + 2;
            while (j < text.length()) {
                char c = text.charAt(j);
                if (c == '\u0007') {
                    return j + 1;
                }
                if (c == '\u001b' && j + 1 < text.length() && text.charAt(j + 1) == '\\') {
                    return j + 2;
                }
                j++;
            }
            return j;
        }
        return i + 2;
    }
}
