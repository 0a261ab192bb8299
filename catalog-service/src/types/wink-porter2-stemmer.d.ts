/** The package ships no types: one function, Porter2 (Snowball English), the stemmer of Postgres's `english` configuration. */
declare module 'wink-porter2-stemmer' {
  function stem(word: string): string;
  export = stem;
}
