/** The part of JSON Schema the spec's request bodies use, as the fuzz checks read it. */
export interface JsonSchema {
  type?: string | readonly string[];
  enum?: readonly unknown[];
  properties?: Readonly<Record<string, JsonSchema>>;
  required?: readonly string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  format?: string;
  [extension: `x-${string}`]: unknown;
}
