//! The standard's I/O queue (section "Terminology"), with its read, peek, push and restore
//! operations and the two conversions.
//!
//! <https://encoding.spec.whatwg.org/#concept-stream>
//!
//! Representation: the items other than end-of-queue, front first, plus whether the queue ends
//! with end-of-queue. That is exact, not an approximation: no operation of the standard can
//! put end-of-queue anywhere but last, or twice ("push" inserts other items before it and
//! ignores a second one, "restore" never restores it, and "convert … into an I/O queue" appends
//! it once, last).
//!
//! The standard's queues may *block* (a streaming queue with nothing to read waits for the
//! network). This single-threaded transcription has nobody to wait for, so the operations that
//! would wait return `None` instead and leave the queue untouched.

use std::collections::VecDeque;

/// An item of an [`IoQueue`]: a value, or the standard's special end-of-queue item.
///
/// <https://encoding.spec.whatwg.org/#end-of-stream>
///
/// ```
/// use simdenc::spec::{IoQueue, Item};
/// let mut queue = IoQueue::from_items([0x41u8]);
/// assert_eq!(queue.read(), Some(Item::Value(0x41)));
/// assert_eq!(queue.read(), Some(Item::EndOfQueue));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Item<T> {
    /// An ordinary item: a byte or a scalar value.
    Value(T),
    /// End-of-queue: "there are no more items in the queue".
    EndOfQueue,
}

/// The standard's I/O queue: a list of items, possibly ending with end-of-queue.
///
/// <https://encoding.spec.whatwg.org/#concept-stream>
///
/// An *immediate* queue ([`IoQueue::from_items`]) has end-of-queue as its last item; a
/// *streaming* queue ([`IoQueue::new`]) gets items [pushed](IoQueue::push) as they arrive and
/// end-of-queue pushed when the input ends. Where the standard's read or peek would wait for
/// more items, these methods return `None`.
///
/// ```
/// use simdenc::spec::{IoQueue, Item};
/// // The standard's example: restoring « 0xF0, 0x9F » to « 0x92 0xA9, end-of-queue ».
/// let mut queue = IoQueue::from_items([0x92u8, 0xA9]);
/// queue.restore_list(&[0xF0, 0x9F]);
/// assert_eq!(queue.read(), Some(Item::Value(0xF0)));
/// assert_eq!(queue.to_vec(), [0x9F, 0x92, 0xA9]);
/// assert!(queue.has_end_of_queue());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IoQueue<T> {
    /// The items other than end-of-queue, front first.
    items: VecDeque<T>,
    /// Whether end-of-queue follows `items`.
    end_of_queue: bool,
}

impl<T: Copy> Default for IoQueue<T> {
    fn default() -> Self {
        IoQueue::new()
    }
}

impl<T: Copy> IoQueue<T> {
    /// An empty streaming queue, « », without end-of-queue.
    ///
    /// ```
    /// use simdenc::spec::IoQueue;
    /// let mut queue = IoQueue::<u8>::new();
    /// assert!(queue.is_empty() && !queue.has_end_of_queue());
    /// assert_eq!(queue.read(), None); // the standard would wait here
    /// ```
    pub fn new() -> Self {
        IoQueue {
            items: VecDeque::new(),
            end_of_queue: false,
        }
    }

    /// "Convert a list, string, or byte sequence into an I/O queue": the items of `items`, in
    /// order, followed by end-of-queue (an immediate queue).
    ///
    /// <https://encoding.spec.whatwg.org/#to-i-o-queue-convert>
    ///
    /// ```
    /// use simdenc::spec::IoQueue;
    /// let queue = IoQueue::from_items("ab".chars());
    /// assert_eq!(queue.len(), 2);
    /// assert!(queue.has_end_of_queue());
    /// ```
    pub fn from_items(items: impl IntoIterator<Item = T>) -> Self {
        // 1. Assert: input is not a list or it does not contain end-of-queue. (Structural: the
        //    items are `T`, never `Item::EndOfQueue`.)
        // 2. Return an I/O queue containing the items in input, in order, followed by
        //    end-of-queue.
        IoQueue {
            items: items.into_iter().collect(),
            end_of_queue: true,
        }
    }

    /// "Read an item": the first item, removed unless it is end-of-queue, which stays.
    ///
    /// <https://encoding.spec.whatwg.org/#concept-stream-read>
    ///
    /// `None` where the standard would wait (the queue is empty and has no end-of-queue).
    ///
    /// ```
    /// use simdenc::spec::{IoQueue, Item};
    /// let mut queue = IoQueue::from_items([1u8]);
    /// assert_eq!(queue.read(), Some(Item::Value(1)));
    /// assert_eq!(queue.read(), Some(Item::EndOfQueue));
    /// assert_eq!(queue.read(), Some(Item::EndOfQueue)); // end-of-queue is never removed
    /// ```
    pub fn read(&mut self) -> Option<Item<T>> {
        // 1. If ioQueue is empty, then wait until its size is at least 1.
        if self.items.is_empty() && !self.end_of_queue {
            return None;
        }
        // 2. If ioQueue[0] is end-of-queue, then return end-of-queue.
        // 3. Remove ioQueue[0] and return it.
        Some(match self.items.pop_front() {
            Some(item) => Item::Value(item),
            None => Item::EndOfQueue,
        })
    }

    /// "Read a number of items": `number` reads, with end-of-queue removed from the result.
    ///
    /// <https://encoding.spec.whatwg.org/#i-o-queue-read-items>
    ///
    /// `None`, with nothing read, if one of the reads would wait.
    ///
    /// ```
    /// use simdenc::spec::IoQueue;
    /// let mut queue = IoQueue::from_items([1u8, 2]);
    /// assert_eq!(queue.read_items(3), Some(vec![1, 2]));
    /// ```
    pub fn read_items(&mut self, number: usize) -> Option<Vec<T>> {
        if self.items.len() < number && !self.end_of_queue {
            return None;
        }
        // 1. Let readItems be « ».
        let mut read_items = Vec::new();
        // 2. Perform the following step number times:
        for _ in 0..number {
            // 1. Append to readItems the result of reading an item from ioQueue.
            // 3. Remove end-of-queue from readItems. (Done while appending.)
            if let Some(Item::Value(item)) = self.read() {
                read_items.push(item);
            }
        }
        // 4. Return readItems.
        Some(read_items)
    }

    /// "Peek": the first `number` items, fewer if end-of-queue comes first.
    ///
    /// <https://encoding.spec.whatwg.org/#i-o-queue-peek>
    ///
    /// `None` where the standard would wait (fewer than `number` items and no end-of-queue).
    ///
    /// The standard's text iterates "n in the range 1 to number" over `ioQueue[n]`, while its
    /// lists are indexed from 0 (see "read", `ioQueue[0]`); this takes the evident meaning,
    /// the first `number` items, which is what "BOM sniff" and "UTF-8 decode" need.
    ///
    /// ```
    /// use simdenc::spec::IoQueue;
    /// let queue = IoQueue::from_items([0xEFu8, 0xBB]);
    /// assert_eq!(queue.peek(3), Some(vec![0xEF, 0xBB]));
    /// let mut streaming = IoQueue::<u8>::new();
    /// assert_eq!(streaming.peek(1), None);
    /// ```
    pub fn peek(&self, number: usize) -> Option<Vec<T>> {
        // 1. Wait until either ioQueue's size is equal to or greater than number, or ioQueue
        //    contains end-of-queue, whichever comes first.
        if self.items.len() < number && !self.end_of_queue {
            return None;
        }
        // 2. Let prefix be « ».
        // 3. For each n in the range 1 to number, inclusive: if ioQueue[n] is end-of-queue,
        //    break; otherwise, append ioQueue[n] to prefix.
        let prefix = self.items.iter().take(number).copied().collect();
        // 4. Return prefix.
        Some(prefix)
    }

    /// "Push": appends `item`, or inserts it before a final end-of-queue; pushing
    /// end-of-queue to a queue that already ends with it does nothing.
    ///
    /// <https://encoding.spec.whatwg.org/#concept-stream-push>
    ///
    /// ```
    /// use simdenc::spec::{IoQueue, Item};
    /// let mut queue = IoQueue::from_items([1u8]);
    /// queue.push(Item::Value(2)); // goes before end-of-queue
    /// queue.push(Item::EndOfQueue); // does nothing
    /// assert_eq!(queue.to_vec(), [1, 2]);
    /// assert_eq!(queue.read(), Some(Item::EndOfQueue));
    /// ```
    pub fn push(&mut self, item: Item<T>) {
        // 1. If the last item in ioQueue is end-of-queue:
        //    1. If item is end-of-queue, do nothing.
        //    2. Otherwise, insert item before the last item in ioQueue.
        // 2. Otherwise, append item to ioQueue.
        match item {
            Item::Value(item) => self.items.push_back(item),
            Item::EndOfQueue => self.end_of_queue = true,
        }
    }

    /// "Push a sequence of items": pushes each, in order.
    ///
    /// <https://encoding.spec.whatwg.org/#i-o-queue-push-items>
    ///
    /// ```
    /// use simdenc::spec::{IoQueue, Item};
    /// let mut queue = IoQueue::new();
    /// queue.push_items([Item::Value('a'), Item::EndOfQueue, Item::Value('b')]);
    /// assert_eq!(queue.to_vec(), ['a', 'b']);
    /// assert!(queue.has_end_of_queue());
    /// ```
    pub fn push_items(&mut self, items: impl IntoIterator<Item = Item<T>>) {
        for item in items {
            self.push(item);
        }
    }

    /// "Restore" an item (other than end-of-queue): prepends it.
    ///
    /// <https://encoding.spec.whatwg.org/#concept-stream-prepend>
    ///
    /// ```
    /// use simdenc::spec::{IoQueue, Item};
    /// let mut queue = IoQueue::from_items([2u8]);
    /// queue.restore(1);
    /// assert_eq!(queue.read(), Some(Item::Value(1)));
    /// ```
    pub fn restore(&mut self, item: T) {
        self.items.push_front(item);
    }

    /// "Restore" a list of items (excluding end-of-queue): inserts them, in the given order,
    /// before the first item in the queue.
    ///
    /// <https://encoding.spec.whatwg.org/#concept-stream-prepend>
    ///
    /// ```
    /// use simdenc::spec::IoQueue;
    /// let mut queue = IoQueue::from_items([3u8]);
    /// queue.restore_list(&[1, 2]);
    /// assert_eq!(queue.to_vec(), [1, 2, 3]);
    /// ```
    pub fn restore_list(&mut self, items: &[T]) {
        for &item in items.iter().rev() {
            self.items.push_front(item);
        }
    }

    /// "Convert an I/O queue into a list": reads items until end-of-queue (which stays in the
    /// queue), or, for a streaming queue, until it is empty (where the standard would wait).
    ///
    /// <https://encoding.spec.whatwg.org/#from-i-o-queue-convert>
    ///
    /// ```
    /// use simdenc::spec::{IoQueue, Item};
    /// let mut queue = IoQueue::new();
    /// queue.push(Item::Value('x'));
    /// assert_eq!(queue.to_vec(), ['x']);
    /// assert!(queue.is_empty());
    /// ```
    pub fn to_vec(&mut self) -> Vec<T> {
        let mut list = Vec::new();
        while let Some(Item::Value(item)) = self.read() {
            list.push(item);
        }
        list
    }

    /// The number of items other than end-of-queue.
    ///
    /// ```
    /// use simdenc::spec::IoQueue;
    /// assert_eq!(IoQueue::from_items([1u8, 2, 3]).len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the queue holds no item other than end-of-queue.
    ///
    /// ```
    /// use simdenc::spec::IoQueue;
    /// let queue = IoQueue::<u8>::from_items([]);
    /// assert!(queue.is_empty() && queue.has_end_of_queue());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Whether the queue ends with end-of-queue (so that reading it can never block).
    ///
    /// ```
    /// use simdenc::spec::{IoQueue, Item};
    /// let mut queue = IoQueue::<u8>::new();
    /// assert!(!queue.has_end_of_queue());
    /// queue.push(Item::EndOfQueue);
    /// assert!(queue.has_end_of_queue());
    /// ```
    pub fn has_end_of_queue(&self) -> bool {
        self.end_of_queue
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_on_an_empty_streaming_queue_would_block_and_changes_nothing() {
        let mut queue = IoQueue::<u8>::new();
        assert_eq!(queue.read(), None);
        assert_eq!(queue.read_items(1), None);
        queue.push(Item::Value(7));
        assert_eq!(queue.read_items(2), None);
        assert_eq!(queue.len(), 1);
        queue.push(Item::EndOfQueue);
        assert_eq!(queue.read_items(2), Some(vec![7]));
        assert_eq!(queue.read(), Some(Item::EndOfQueue));
    }

    #[test]
    fn peek_does_not_consume() {
        let queue = IoQueue::from_items([1u8, 2, 3, 4]);
        assert_eq!(queue.peek(3), Some(vec![1, 2, 3]));
        assert_eq!(queue.peek(0), Some(vec![]));
        assert_eq!(queue.len(), 4);
        let mut streaming = IoQueue::new();
        streaming.push_items([Item::Value(1u8), Item::Value(2)]);
        assert_eq!(streaming.peek(2), Some(vec![1, 2]));
        assert_eq!(streaming.peek(3), None);
    }

    #[test]
    fn restore_after_end_of_queue_was_read() {
        let mut queue = IoQueue::from_items([]);
        assert_eq!(queue.read(), Some(Item::EndOfQueue));
        queue.restore(9u8);
        assert_eq!(queue.read(), Some(Item::Value(9)));
        assert_eq!(queue.read(), Some(Item::EndOfQueue));
    }
}
