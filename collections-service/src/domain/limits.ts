/**
 * Caps the contract leaves open (docs/collections.md). They keep one
 * collection's response and one owner's list bounded; going over is a 409.
 */
export const MAX_ENTRIES_PER_COLLECTION = 1000;
export const MAX_COLLECTIONS_PER_ACCOUNT = 100;
export const MAX_COLLECTIONS_PER_WORKSPACE = 500;
