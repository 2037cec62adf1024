// @wmde/wikibase-rest-api ships JavaScript without type declarations; the tests call it as its README does.
declare module '@wmde/wikibase-rest-api';
