package dev.taskagent.steps;

import java.util.Objects;

/**
 * One step of a task's Markdown checklist: a GitHub-flavoured task-list item such as {@code - [ ] Send
 * the list to Hanan on WhatsApp}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param number the 1-based position among all steps of the document, in document order across every
 *     nesting depth; the number the execution prompt and the {@code ✓ STEP n:} markers use
 * @param text the step's description: the rest of the item's first line after the box, without leading
 *     and trailing whitespace; never blank
 * @param checked true when the box is ticked ({@code [x]} or {@code [X]})
 * @param depth how deeply the item is nested in lists: 0 for a top-level item, 1 for an item inside
 *     another list item, and so on
 * @param line the 1-based number of the document's line that holds the box, as editors show it; LF, CRLF
 *     and a lone CR each end a line
 * @param boxOffset the 0-based offset in the document, in {@code char}s (UTF-16 code units, as {@link
 *     String#charAt(int)} counts them, a byte order mark included), of the box's {@code [}; the box's
 *     state is the character after it
 */
public record Step(int number, String text, boolean checked, int depth, int line, int boxOffset) {

    /**
     * Checks the invariants.
     *
     * @param number the 1-based position among all steps of the document, in document order; at least 1
     * @param text the step's description, without leading and trailing whitespace; not blank
     * @param checked true when the box is ticked
     * @param depth how deeply the item is nested in lists, 0 for a top-level item; not negative
     * @param line the 1-based number of the document's line that holds the box; at least 1
     * @param boxOffset the 0-based offset in the document, in {@code char}s, of the box's {@code [}; not negative
     */
    public Step {
        if (number < 1) {
            throw new IllegalArgumentException("number must be at least 1, was " + number);
        }
        Objects.requireNonNull(text, "text");
        if (text.isBlank()) {
            throw new IllegalArgumentException("text must not be blank");
        }
        if (depth < 0) {
            throw new IllegalArgumentException("depth must not be negative, was " + depth);
        }
        if (line < 1) {
            throw new IllegalArgumentException("line must be at least 1, was " + line);
        }
        if (boxOffset < 0) {
            throw new IllegalArgumentException("boxOffset must not be negative, was " + boxOffset);
        }
    }

    /**
     * Returns this step with another checked state.
     *
     * @param value the new state
     * @return the step, ticked or not
     */
    Step withChecked(boolean value) {
        return value == checked ? this : new Step(number, text, value, depth, line, boxOffset);
    }
}
