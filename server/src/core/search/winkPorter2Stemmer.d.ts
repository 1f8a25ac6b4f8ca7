// wink-porter2-stemmer ships no types: one function, word in, Porter2 stem out.
declare module 'wink-porter2-stemmer' {
  function stem(word: string): string;
  export = stem;
}
