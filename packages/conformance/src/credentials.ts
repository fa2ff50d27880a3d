/** A merchant's API key and its secret, as the kit signs with them. */
export interface Credentials {
  apiKey: string;
  secret: string;
}
