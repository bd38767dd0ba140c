/**
 * The one global of React Native's own types (react-native/src/types/globals.d.ts) that the
 * installed declarations reach: zod's name `URL`. Declared as React Native declares it, in part,
 * so that react-native-app.ts is checked without installing react-native; tsconfig.react-native.json
 * in the repository checks the same entries against the real react-native types.
 */
interface URL {
  readonly href: string;
  readonly origin: string;
  readonly pathname: string;
  readonly protocol: string;
  toString(): string;
}
