import {
  cleanup,
  fireEvent,
  render,
  screen,
  waitForElementToBeRemoved,
  within,
} from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { stubMatchMedia } from '../../test/providers';
import { AppThemeProvider } from '../../theme/app-theme-provider';
import {
  DateLocalizationProvider,
  DateRangeFilter,
  endOfDay,
  isDateRangeInvalid,
  startOfDay,
  type DateRangeValue,
} from '.';

const START_AFTER_END = 'The start date cannot be after the end date';

/** Local-time epoch milliseconds; the filter works in the user's time zone. */
const at = (month: number, day: number, ...time: number[]) =>
  new Date(2024, month - 1, day, ...time).getTime();

/** A screen that keeps what the filter reports, as the collections and files lists do. */
function Screen({
  initial,
  onChange,
}: {
  initial: DateRangeValue;
  onChange: (next: DateRangeValue) => void;
}) {
  const [value, setValue] = useState(initial);
  return (
    <DateRangeFilter
      value={value}
      onChange={(next) => {
        onChange(next);
        setValue(next);
      }}
    />
  );
}

function renderFilter(initial: DateRangeValue = {}) {
  const onChange = vi.fn<(next: DateRangeValue) => void>();
  render(
    <AppThemeProvider>
      <DateLocalizationProvider>
        <Screen initial={initial} onChange={onChange} />
      </DateLocalizationProvider>
    </AppThemeProvider>,
  );
  return onChange;
}

/** Opens the calendar of a field with its button and returns the picker dialog. */
function openCalendar(buttonName: string, dialogName: string) {
  fireEvent.click(screen.getByRole('button', { name: buttonName }));
  return screen.getByRole('dialog', { name: dialogName });
}

/** Closes the dialog with one of its buttons; the page stays hidden from queries until it is gone. */
async function closeWith(dialog: HTMLElement, buttonName: string) {
  fireEvent.click(within(dialog).getByRole('button', { name: buttonName }));
  await waitForElementToBeRemoved(dialog);
}

/** jsdom has no fine pointer, so this is the phone picker: a pick is confirmed with OK. */
async function pickDay(dialog: HTMLElement, day: number) {
  fireEvent.click(within(dialog).getByRole('gridcell', { name: String(day) }));
  await closeWith(dialog, 'OK');
}

// Rendering the calendar in jsdom takes about a second a test; the default 5 s leaves no margin.
describe('DateRangeFilter', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    stubMatchMedia();
    // Only Date is faked: the picker's transitions still need real timers.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2024, 4, 20, 12, 0));
    await i18n.changeLanguage('en');
  });
  afterEach(async () => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    await i18n.changeLanguage('en');
  });

  it('reports from as the start of the day and to as the end of the day', async () => {
    const onChange = renderFilter();
    await pickDay(openCalendar('Choose the start date', 'From'), 3);
    expect(onChange).toHaveBeenLastCalledWith({ from: at(5, 3) });
    await pickDay(openCalendar('Choose the end date', 'To'), 15);
    expect(onChange).toHaveBeenLastCalledWith({ from: at(5, 3), to: at(5, 15, 23, 59, 59, 999) });
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'From' }).value).toBe(
      'May 3, 2024',
    );
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'To' }).value).toBe(
      'May 15, 2024',
    );
    expect(screen.queryByText(START_AFTER_END)).toBeNull();
  });

  it('shows the error on both fields when from is after to, and still reports the range', async () => {
    const onChange = renderFilter({ to: at(5, 10, 23, 59, 59, 999) });
    await pickDay(openCalendar('Choose the start date', 'From'), 12);
    expect(onChange).toHaveBeenLastCalledWith({ from: at(5, 12), to: at(5, 10, 23, 59, 59, 999) });
    expect(screen.getAllByText(START_AFTER_END)).toHaveLength(2);
    for (const name of ['From', 'To']) {
      expect(screen.getByRole('textbox', { name }).getAttribute('aria-invalid')).toBe('true');
    }
  });

  it('accepts from and to on the same day', () => {
    renderFilter({ from: at(5, 10), to: at(5, 10, 23, 59, 59, 999) });
    expect(screen.queryByText(START_AFTER_END)).toBeNull();
  });

  it('disables the days and years after today', () => {
    renderFilter();
    const dialog = openCalendar('Choose the start date', 'From');
    expect(within(dialog).getByRole('gridcell', { name: '20' }).hasAttribute('disabled')).toBe(
      false,
    );
    expect(within(dialog).getByRole('gridcell', { name: '21' }).hasAttribute('disabled')).toBe(
      true,
    );
    expect(
      within(dialog).getByRole('button', { name: 'Next month' }).hasAttribute('disabled'),
    ).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: /switch to year view/ }));
    expect(within(dialog).getByRole('radio', { name: '2024' }).hasAttribute('disabled')).toBe(
      false,
    );
    expect(within(dialog).getByRole('radio', { name: '2025' }).hasAttribute('disabled')).toBe(true);
  });

  it('lays the year grid out 4 years per row', () => {
    renderFilter();
    const dialog = openCalendar('Choose the start date', 'From');
    fireEvent.click(within(dialog).getByRole('button', { name: /switch to year view/ }));
    const current = within(dialog).getByRole('radio', { name: '2024' });
    expect(document.activeElement).toBe(current);
    // Arrow Up moves one row up: four years back.
    fireEvent.keyDown(current, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(within(dialog).getByRole('radio', { name: '2020' }));
  });

  it('starts the week on Sunday in English and on Monday in Italian', async () => {
    renderFilter();
    let dialog = openCalendar('Choose the start date', 'From');
    let headers = within(dialog).getAllByRole('columnheader');
    expect(headers[0]?.textContent).toBe('S');
    expect(headers[0]?.getAttribute('aria-label')).toBe('Sunday');
    await closeWith(dialog, 'Cancel');
    cleanup();

    await i18n.changeLanguage('it');
    renderFilter();
    expect(screen.getByRole('textbox', { name: 'Al' })).toBeTruthy();
    dialog = openCalendar('Scegli la data di inizio', 'Dal');
    headers = within(dialog).getAllByRole('columnheader');
    expect(headers[0]?.textContent).toBe('L');
    expect(headers[0]?.getAttribute('aria-label')).toBe('lunedì');
    // MUI X's own texts are Italian too.
    expect(within(dialog).getByRole('button', { name: 'Annulla' })).toBeTruthy();
    await pickDay(dialog, 3);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Dal' }).value).toBe('3 mag 2024');
  });

  it('follows a language change while mounted', async () => {
    renderFilter({ from: at(5, 3) });
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'From' }).value).toBe(
      'May 3, 2024',
    );
    await i18n.changeLanguage('it');
    expect(await screen.findByRole('textbox', { name: 'Dal' })).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Dal' }).value).toBe('3 mag 2024');
  });

  it('clears a bound with the clear button, which only shows when there is a date', () => {
    const onChange = renderFilter({ from: at(5, 3), to: at(5, 15, 23, 59, 59, 999) });
    fireEvent.click(screen.getByRole('button', { name: 'Clear the start date' }));
    expect(onChange).toHaveBeenCalledTimes(1);
    const cleared = onChange.mock.calls[0]?.[0];
    expect(cleared).toEqual({ to: at(5, 15, 23, 59, 59, 999) });
    expect(cleared?.from).toBeUndefined();
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'From' }).value).toBe('');
    expect(screen.queryByRole('button', { name: 'Clear the start date' })).toBeNull();
    // Clearing does not open the calendar, and the keyboard stays in the field.
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'From' }));

    fireEvent.click(screen.getByRole('button', { name: 'Clear the end date' }));
    expect(onChange).toHaveBeenLastCalledWith({});
  });

  it('cannot be typed into: the field opens the calendar on click or from the keyboard', async () => {
    renderFilter();
    const from = screen.getByRole('textbox', { name: 'From' });
    expect(from.hasAttribute('readonly')).toBe(true);
    fireEvent.click(from);
    await closeWith(screen.getByRole('dialog', { name: 'From' }), 'Cancel');

    const to = screen.getByRole('textbox', { name: 'To' });
    fireEvent.keyDown(to, { key: 'Enter' });
    expect(screen.getByRole('dialog', { name: 'To' })).toBeTruthy();
  });

  it('keeps the calendar buttons in the tab order with a name', () => {
    renderFilter();
    for (const name of ['Choose the start date', 'Choose the end date']) {
      const button = screen.getByRole('button', { name });
      expect(button.tabIndex).toBe(0);
      expect(button.hasAttribute('disabled')).toBe(false);
    }
    expect(screen.getByRole('group', { name: 'Date filter' })).toBeTruthy();
  });
});

describe('date range helpers', () => {
  it('take a day to its first and last millisecond in local time', () => {
    expect(startOfDay(new Date(2024, 4, 3, 17, 45))).toBe(at(5, 3));
    expect(endOfDay(new Date(2024, 4, 3, 0, 0))).toBe(at(5, 3, 23, 59, 59, 999));
    expect(endOfDay(at(5, 3, 12))).toBe(at(5, 3, 23, 59, 59, 999));
  });

  it('find a range invalid only when from is after to', () => {
    expect(isDateRangeInvalid({})).toBe(false);
    expect(isDateRangeInvalid({ from: at(5, 3) })).toBe(false);
    expect(isDateRangeInvalid({ to: at(5, 3) })).toBe(false);
    expect(isDateRangeInvalid({ from: at(5, 3), to: endOfDay(at(5, 3)) })).toBe(false);
    expect(isDateRangeInvalid({ from: at(5, 4), to: endOfDay(at(5, 3)) })).toBe(true);
  });
});
