/**
 * A labelled text input of a form (the label wraps the field, so clicking it focuses the field and a screen reader
 * reads its name): emails, passwords and codes of the sign-in, invite, password and enrollment forms.
 */
import type { InputHTMLAttributes, Ref } from "react";

export interface TextFieldProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "children" | "ref"> {
  label: string;
  value: string;
  onValue(value: string): void;
  inputRef?: Ref<HTMLInputElement>;
}

export function TextField({ label, value, onValue, inputRef, ...input }: TextFieldProps) {
  return (
    <label>
      {label}
      <input ref={inputRef} required value={value} onChange={(e) => onValue(e.target.value)} {...input} />
    </label>
  );
}
