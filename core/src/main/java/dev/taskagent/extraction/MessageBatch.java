package dev.taskagent.extraction;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The messages of one run, numbered 0..n-1 for the model, with the way back from those numbers to the
 * host application's message ids.
 */
final class MessageBatch {
    private final List<ConversationMessage> messages;

    MessageBatch(List<ConversationMessage> messages) {
        this.messages = List.copyOf(messages);
        Set<String> seen = new HashSet<>();
        for (ConversationMessage message : this.messages) {
            if (!seen.add(message.id())) {
                throw new IllegalArgumentException("message id '" + message.id()
                        + "' occurs twice in the batch; each message of a batch needs its own id");
            }
        }
    }

    List<ConversationMessage> messages() {
        return messages;
    }

    int size() {
        return messages.size();
    }

    /** Describes the valid numbers for the model, e.g. {@code 0..4}. */
    String validRange() {
        return messages.size() == 1 ? "0" : "0.." + (messages.size() - 1);
    }

    /**
     * Maps the model's message numbers to host ids, keeping the order given and dropping repeats.
     *
     * @param numbers the numbers the model sent
     * @return the host ids of the valid numbers, and the numbers outside the batch
     */
    Resolution resolve(List<Integer> numbers) {
        Set<Integer> valid = new LinkedHashSet<>();
        Set<Integer> outside = new LinkedHashSet<>();
        for (int number : numbers) {
            if (number >= 0 && number < messages.size()) {
                valid.add(number);
            } else {
                outside.add(number);
            }
        }
        List<String> hostIds = new ArrayList<>(valid.size());
        valid.forEach(number -> hostIds.add(messages.get(number).id()));
        return new Resolution(List.copyOf(valid), hostIds, List.copyOf(outside));
    }

    /**
     * The outcome of {@link #resolve(List)}.
     *
     * @param numbers the valid numbers, in the order given, without repeats
     * @param hostIds the host ids of those numbers, in the same order
     * @param outside the numbers that are not in the batch
     */
    record Resolution(List<Integer> numbers, List<String> hostIds, List<Integer> outside) {
        boolean isEmpty() {
            return numbers.isEmpty();
        }

        String numbersText() {
            return join(numbers);
        }

        String outsideText() {
            return join(outside);
        }

        private static String join(List<Integer> values) {
            return values.stream().map(String::valueOf).collect(Collectors.joining(", "));
        }
    }
}
