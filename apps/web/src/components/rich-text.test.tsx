import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RichText } from './rich-text';

describe('RichText', () => {
  it('renders each named tag inside its element and the text around it as it is', () => {
    const { container } = render(
      <p>
        <RichText
          text="I accept the <terms>Terms</terms> and the <privacy>Privacy Policy</privacy>, aged 16."
          components={{ terms: <a href="/terms" />, privacy: <a href="/privacy" /> }}
        />
      </p>,
    );
    expect(container.querySelector('p')?.innerHTML).toBe(
      'I accept the <a href="/terms">Terms</a> and the <a href="/privacy">Privacy Policy</a>, aged 16.',
    );
    expect(screen.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe(
      '/privacy',
    );
  });

  it('leaves a tag without an element, and a text without tags, as written', () => {
    const { container } = render(
      <p>
        <RichText text="a <b>bold</b> <time>today</time>" components={{ time: <time /> }} />
      </p>,
    );
    expect(container.querySelector('p')?.innerHTML).toBe(
      'a &lt;b&gt;bold&lt;/b&gt; <time>today</time>',
    );
    const plain = render(<RichText text="Nothing to mark" components={{}} />);
    expect(plain.container.textContent).toBe('Nothing to mark');
  });

  it('renders a tag at the very start and at the very end', () => {
    const { container } = render(
      <p>
        <RichText text="<x>one</x> two <x>three</x>" components={{ x: <em /> }} />
      </p>,
    );
    expect(container.querySelector('p')?.innerHTML).toBe('<em>one</em> two <em>three</em>');
  });
});
